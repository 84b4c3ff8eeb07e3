package acpparams

import (
	"sync/atomic"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Memoizer is a message that keeps a reading of its bytes for whoever reads
// it next the same way: an *acpwire.Message (see its Memo).
type Memoizer interface {
	Memo(key any, read func() any) any
}

// updateKey names ReadUpdate's reading of a message (Memoizer.Memo).
type updateKey struct{}

// updateRead is ReadUpdate's result, as kept on a message, with the params
// it read. items is the memory of u's Items while they hold one item, as
// a tool call's content mostly does: the reading allocates none for them.
// Items hold slices of the message's bytes anyway; Locations get memory of
// their own, as a feature keeps them (governance's call state) and must
// not keep the message's bytes, through the reading, with them.
type updateRead struct {
	done   bool // the reading is made
	params []byte
	u      Update
	err    error
	items  [1]ContentItem
}

// newUpdateRead is the reading Memo keeps on a message, made by
// SharedUpdateOf right after: a function of no variables, so that asking
// Memo allocates no closure, on the first reading or any after.
func newUpdateRead() any { return new(updateRead) }

// sharedIDs decodes the session ids of the readings kept on messages: a
// stream names one session, whose id is then decoded once.
var sharedIDs SessionIDs

// UpdateOf returns ReadUpdate(params), where params are m's params
// (m.Params of an *acpwire.Message), reading them only the first time it is
// asked for m: compression and governance both read each session/update
// they see, and share the reading. Params other than those the reading
// kept on m was made from are read afresh. The Update's slices
// (Items, Locations) are shared by every caller: read them, do not change
// them.
func UpdateOf(m Memoizer, params []byte) (Update, error) {
	if c, ok := m.(ChunkLiner); ok {
		if u, ok := ChunkOf(c, params); ok {
			return u, nil
		}
	}
	u, err := SharedUpdateOf(m, params)
	return *u, err
}

// SharedUpdateOf is UpdateOf returning the reading kept on m itself rather
// than a copy of it (an Update is some 40 words): every caller shares it,
// so read it and do not change it. It keeps a reading on m for a text
// chunk too; a caller that reads chunks reads them with ChunkOf first.
func SharedUpdateOf(m Memoizer, params []byte) (*Update, error) {
	r := m.Memo(updateKey{}, newUpdateRead).(*updateRead)
	if !r.done {
		// Kept on m just now by this call: no other reader has seen it
		// (Memo is never called on one message from two goroutines).
		r.done, r.params = true, params
		rd := reader{b: params, known: knownOf(m), ids: &sharedIDs, spareItems: r.items[:0]}
		r.err = rd.update(&r.u)
	}
	if !sameSlice(r.params, params) {
		u := new(Update)
		err := readUpdateKnown(params, u, knownOf(m))
		return u, err
	}
	return &r.u, r.err
}

// StringKnower is a message that knows where its long string literals
// are: an *acpwire.Message (see its KnownStrings). The reader steps over
// those without reading them again; a record that does not describe the
// bytes read is never used (rawjson.KnownStrings.End).
type StringKnower interface {
	KnownStrings() rawjson.KnownStrings
}

// knownOf returns m's record of its long string literals, if it keeps one.
func knownOf(m Memoizer) rawjson.KnownStrings {
	if k, ok := m.(StringKnower); ok {
		return k.KnownStrings()
	}
	return rawjson.KnownStrings{}
}

// ChunkLiner is a message that knows the parts of the text chunk it holds
// from when it was parsed: an *acpwire.Message (see its ChunkLine).
type ChunkLiner interface {
	ChunkLine() (params, sessionID []byte, variant string, text []byte, ok bool)
}

// ChunkOf returns ReadUpdate(params) for a text chunk m holds in the form
// its ChunkLine knows, built from those parts without reading params
// again, or ok false: for any other message, or params other than m's.
// Text chunks are most of a stream, and the parts tell where the text ends
// without a pass over it. It keeps nothing on m: the reading costs less
// than keeping it.
func ChunkOf(m ChunkLiner, params []byte) (u Update, ok bool) {
	return (*SessionIDs)(nil).ChunkOf(m, params)
}

// ChunkOf is the package's ChunkOf, with the session id decoded through c
// (SessionIDs.String); a nil c decodes it afresh.
func (c *SessionIDs) ChunkOf(m ChunkLiner, params []byte) (u Update, ok bool) {
	ok = c.ReadChunk(m, params, &u)
	return u, ok
}

// ReadChunk is ChunkOf reading into *u rather than returning a copy: if it
// reports true, *u holds what ChunkOf returns; otherwise *u is unchanged.
func (c *SessionIDs) ReadChunk(m ChunkLiner, params []byte, u *Update) bool {
	own, sid, variant, text, ok := m.ChunkLine()
	if !ok || !sameSlice(own, params) {
		return false
	}
	// params is {"sessionId":S,"update":{"sessionUpdate":V,"content":{"type":"text","text":T}}}:
	// the content block and the update end one and two bytes past T.
	end := len(params) - 3 // past T
	id, ok := c.String(sid)
	if !ok {
		return false
	}
	*u = Update{SessionID: id, SessionUpdate: variant, ToolCall: ToolCall{Text: text,
		Content: params[end-len(text)-len(`{"type":"text","text":`) : end+1]},
		Raw: params[len(`{"sessionId":`)+len(sid)+len(`,"update":`) : end+2]}
	return true
}

// sameSlice reports whether a and b are the same bytes in memory.
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// SessionIDs remembers the session id it decoded last, as written and as
// decoded: the chunks of a stream all name one session, and share one
// string instead of each decoding (and allocating) its own. The zero
// value is ready to use; it is safe for concurrent use.
type SessionIDs struct {
	last atomic.Pointer[decodedID]
}

// decodedID is a JSON string literal and what rawjson.String returned
// for it.
type decodedID struct{ lit, id string }

// String returns rawjson.String(lit): for the literal it decoded last, the
// string it returned then (the same bytes decode the same way). A nil c
// decodes lit afresh.
func (c *SessionIDs) String(lit []byte) (string, bool) {
	if c == nil {
		return rawjson.String(lit)
	}
	if d := c.last.Load(); d != nil && d.lit == string(lit) {
		return d.id, true
	}
	id, ok := rawjson.String(lit)
	if ok {
		c.last.Store(&decodedID{lit: string(lit), id: id})
	}
	return id, ok
}
