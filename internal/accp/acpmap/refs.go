package acpmap

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// Back-references: an ACP session repeats itself (the same paths, tool
// call ids, _meta blocks and option lists travel in several messages), and
// section 3.3 rule 4 asks encoders to reference state rather than repeat a
// value. Both ends of a session therefore number the values they see:
// walking each message's params in key order, depth first, every string,
// array and map whose canonical text is at least refMinBytes long gets the
// next number once its own children have been walked (a child numbered
// before its parent). With Options.Refs the encoder writes a value it has
// already numbered as "$N", a ref whose key is the number; the decoder
// replaces "$N" by value N, and neither end numbers a referenced value
// again or looks inside it. The decoder always keeps the numbering, so a
// stream tells by itself whether it uses refs. Mapped frames hold no other
// refs (a string starting with "$" is escaped), so "$N" is unambiguous.
// Frames must be decoded in seq order, which section 3.7 already demands,
// and a frame the delivery rules drop still takes part in the numbering.
//
// The numbering holds at most refMaxEntries values; a value whose text
// would take the held text over refMaxBytes is not numbered, and later
// smaller ones still are, and so for a value that would take the values
// inside numbered ones over refMaxHeldValues (a list of small numbers is
// a few bytes of text but 80 bytes of memory, an accp.Value, a number). The
// refs of one frame, all the messages of a run frame together, may stand
// for at most Options.MaxRefBytes of text and refMaxValues values in all:
// the encoder writes a value inline rather than go over either, a
// RunEncoder ends a run before a message that would take the run over
// them, and the decoder rejects a frame that does (E2003
// BUDGET_EXCEEDED), so what a frame's refs add is bounded per frame
// (Options.MaxJSONBytes bounds the JSON it decodes to). Neither end
// renders a value more than once per message: the decoder adds up sizes
// from the children, the encoder renders each param once and keeps where
// each value's text lies. A numbered value's text is copied out of the
// frame line, so the numbering does not keep lines alive. Once a frame
// fails to decode partway (a ref to no value, or over the budget) the two
// ends no longer number alike: every later "$N" is E2001, while frames
// without refs still decode.
const (
	refMinBytes   = 8       // a shorter value costs about as much as its ref
	refMaxEntries = 1 << 16 // then no more values are numbered
	// refCountBelow: a repeated value shorter than this many bytes is
	// written as a ref only if that takes fewer o200k tokens.
	refCountBelow = 64
)

// DefaultMaxRefBytes is the default of Options.MaxRefBytes.
const DefaultMaxRefBytes = 16 << 20

// refMaxValues bounds the values the refs of one message stand for,
// summed, as Options.MaxRefBytes bounds their text: a ref to a list of
// small maps stands for many Go values per byte.
const refMaxValues = 1 << 16

// refMaxBytes bounds the canonical text the numbered values hold, summed.
// Only tests change it.
var refMaxBytes = 32 << 20

// refMaxHeldValues bounds the values inside the numbered values, summed as
// extent counts them (a value inside numbered values at several depths
// counts at each): a list of small numbers is a few bytes of text a
// number but 80 bytes of memory (an accp.Value). 40 frames of lists of
// 1,000 to 260,000 numbers leave 2-19 MB live. Only tests change it.
var refMaxHeldValues = 1 << 18

// refTable is one end's numbering of a session's values.
type refTable struct {
	index    map[string]int // encoder: canonical text -> number
	lens     map[int]int    // encoder: how many texts of each length index holds
	spans    []span         // encoder: the values of the param being encoded
	rendered int            // encoder: values rendered into buf
	vals     []accp.Value   // decoder: number -> value
	extents  []extent       // decoder: number -> the value's extent
	n        int            // values numbered
	bytes    int            // their canonical text, summed
	held     int            // the values in them, summed
	full     bool           // refMaxEntries reached
	buf      []byte         // encoder: canonical text of the param being encoded

	// Per message: the text and values its refs stood for so far, and the
	// most text they may (Options.MaxRefBytes).
	expanded, expandedValues, maxExpand int
	lost                                int64 // the seq of a frame that failed partway; 0 if none
}

// room reports whether a value of extent x gets a number, counting it if
// so. A value too large for what is left of refMaxBytes or
// refMaxHeldValues is skipped; numbering goes on for smaller ones.
func (t *refTable) room(x extent) bool {
	if t.full || t.bytes+x.bytes > refMaxBytes || t.held+x.values > refMaxHeldValues {
		return false
	}
	t.n++
	t.bytes += x.bytes
	t.held += x.values
	if t.n >= refMaxEntries {
		t.full = true
	}
	return true
}

func numbered(k accp.Kind) bool {
	return k == accp.KindString || k == accp.KindArray || k == accp.KindMap
}

// sortedOrder returns the indexes of params in key order.
func sortedOrder(params []accp.Field) []int {
	order := make([]int, len(params))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(params[a].Key, params[b].Key) })
	return order
}

// encodeParams numbers the values of a message's params and replaces
// values numbered before by refs, in place. What the refs it wrote stand
// for, within the budget, is then messageRefs.
func (t *refTable) encodeParams(params []accp.Field) {
	t.expanded, t.expandedValues = 0, 0
	for _, i := range sortedOrder(params) {
		// Each value's text is rendered once, with the spans of the values
		// inside it, so the walk looks up each value without rendering it
		// again.
		t.buf, t.spans = t.buf[:0], t.spans[:0]
		t.render(params[i].Val)
		n := 0
		params[i].Val = t.encode(params[i].Val, &n)
	}
}

// messageRefs returns what the refs of the message last encoded stand for.
func (t *refTable) messageRefs() extent { return extent{t.expanded, t.expandedValues} }

// withinBudget reports whether refs standing for x and y together are
// within the budget: a run may hold two messages only if so.
func (t *refTable) withinBudget(x, y extent) bool {
	return x.bytes+y.bytes <= t.maxExpand && x.values+y.values <= refMaxValues
}

// span is where a numbered kind's canonical text lies in refTable.buf,
// the index of the first span after the value's own ones, and the values
// in it (as extent counts them).
type span struct{ start, end, next, values int }

// render appends v's canonical text to t.buf, and a span for every string,
// array and map in it, in the order encode walks them.
func (t *refTable) render(v accp.Value) {
	t.rendered++
	if v.Kind == accp.KindPair {
		t.buf = append(t.buf, v.Fields[0].Key...)
		t.buf = append(t.buf, ':')
		t.render(v.Fields[0].Val)
		return
	}
	if !numbered(v.Kind) {
		t.buf = accp.AppendValue(t.buf, v)
		return
	}
	i, first := len(t.spans), t.rendered
	t.spans = append(t.spans, span{start: len(t.buf)})
	switch v.Kind {
	case accp.KindString:
		t.buf = accp.AppendValue(t.buf, v)
	case accp.KindArray:
		t.buf = append(t.buf, '[')
		for j, e := range v.List {
			if j > 0 {
				t.buf = append(t.buf, ',')
			}
			t.render(e)
		}
		t.buf = append(t.buf, ']')
	case accp.KindMap:
		t.buf = append(t.buf, '{')
		for j, f := range sortedFields(v.Fields) {
			if j > 0 {
				t.buf = append(t.buf, ',')
			}
			t.buf = accp.AppendMapKey(t.buf, f.Key)
			t.buf = append(t.buf, ':')
			t.render(f.Val)
		}
		t.buf = append(t.buf, '}')
	}
	t.spans[i].end = len(t.buf)
	t.spans[i].next = len(t.spans)
	t.spans[i].values = t.rendered - first + 1
}

// sortedFields returns fields in key order, as the canonical text has them.
func sortedFields(fields []accp.Field) []accp.Field {
	if slices.IsSortedFunc(fields, func(a, b accp.Field) int { return strings.Compare(a.Key, b.Key) }) {
		return fields
	}
	fields = slices.Clone(fields)
	slices.SortFunc(fields, func(a, b accp.Field) int { return strings.Compare(a.Key, b.Key) })
	return fields
}

// encode returns v with values numbered before replaced by refs, and
// numbers the others. *sp is the index of v's first span.
func (t *refTable) encode(v accp.Value, sp *int) accp.Value {
	if v.Kind == accp.KindPair {
		out := v
		out.Fields = []accp.Field{{Key: v.Fields[0].Key, Val: t.encode(v.Fields[0].Val, sp)}}
		return out
	}
	if !numbered(v.Kind) {
		return v
	}
	s := t.spans[*sp]
	text := t.buf[s.start:s.end]
	size := len(text)
	if size < refMinBytes {
		*sp = s.next
		return v // and so are its children
	}
	if t.lens[size] > 0 {
		if n, ok := t.index[string(text)]; ok {
			ref := accp.Ref(strconv.Itoa(n))
			// A short value can be fewer tokens than its ref ("description"
			// is one, "$17" two); it is then written again, and numbered
			// again, as the decoder will. Past the budget it is written
			// again too.
			if (size >= refCountBelow || accp.CountTokens(string(text)) > accp.CountTokens(string(accp.AppendValue(nil, ref)))) &&
				t.expand(extent{size, s.values}) {
				*sp = s.next
				return ref
			}
		}
	}
	*sp++
	out := v
	switch v.Kind {
	case accp.KindArray:
		out.List = make([]accp.Value, len(v.List))
		for i, e := range v.List {
			out.List[i] = t.encode(e, sp)
		}
	case accp.KindMap:
		fields := sortedFields(v.Fields)
		out.Fields = make([]accp.Field, len(fields))
		for i, f := range fields {
			out.Fields[i] = accp.Field{Key: f.Key, Val: t.encode(f.Val, sp)}
		}
	}
	if t.room(extent{size, s.values}) {
		if t.index == nil {
			t.index, t.lens = map[string]int{}, map[int]int{}
		}
		if _, dup := t.index[string(text)]; !dup {
			t.index[string(text)] = t.n - 1
			t.lens[size]++
		}
	}
	return out
}

// decodeFrames resolves the refs of the params of the frames one received
// frame holds (several for a run) and numbers their values, in place. seq
// is the frame's. The refs of all of them together are held to the
// budget.
func (t *refTable) decodeFrames(frames []*accp.Frame, seq int64) error {
	// The budget covers the whole received frame, not each message of a
	// run: the messages are all built before any is returned.
	t.expanded, t.expandedValues = 0, 0
	for _, g := range frames {
		for _, i := range sortedOrder(g.Params) {
			v, _, _, err := t.decode(g.Params[i].Val)
			if err != nil {
				t.loseAt(seq)
				return err
			}
			g.Params[i].Val = v
		}
	}
	return nil
}

// loseAt records that the numbering broke at the frame with seq, and
// drops the values: no later ref can be trusted to mean what the encoder
// meant.
func (t *refTable) loseAt(seq int64) {
	if t.lost == 0 {
		t.lost = seq
	}
	t.vals, t.extents = nil, nil
}

func isNumber(s string) bool {
	if s == "" || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// extent is how much a value stands for: the length of its canonical
// text and the values in it (itself included; a pair's key counts as one).
type extent struct{ bytes, values int }

func (x *extent) add(y extent) { x.bytes += y.bytes; x.values += y.values }

// expand counts the refs of the message being encoded or decoded: it
// reports whether a ref to a value of extent x keeps them within the
// budget, and counts it if so.
func (t *refTable) expand(x extent) bool {
	if t.expanded+x.bytes > t.maxExpand || t.expandedValues+x.values > refMaxValues {
		return false
	}
	t.expanded += x.bytes
	t.expandedValues += x.values
	return true
}

// decode returns v with its refs resolved, its extent, and whether it is
// owned: holds no substring of the frame line, so keeping it does not keep
// the line alive. It numbers v's values. v is a fresh parse of one frame:
// decode resolves refs inside it in place, so an array or map is not
// copied, whatever it holds; values it resolves refs to are not walked or
// changed.
func (t *refTable) decode(v accp.Value) (out accp.Value, x extent, owned bool, err error) {
	switch v.Kind {
	case accp.KindRef:
		if !isNumber(v.Str) {
			return v, extent{accp.ValueSize(v), 1}, false, nil
		}
		if t.lost != 0 {
			return v, x, false, &accp.Error{Code: accp.CodeRefNotFound, Offset: -1,
				Msg: fmt.Sprintf("$%s: the numbering broke at the frame with seq %d", v.Str, t.lost)}
		}
		n, _ := strconv.Atoi(v.Str)
		if n >= len(t.vals) {
			return v, x, false, &accp.Error{Code: accp.CodeRefNotFound, Offset: -1, Msg: "$" + v.Str + ": no such value earlier in the session"}
		}
		if !t.expand(t.extents[n]) {
			return v, x, false, &accp.Error{Code: accp.CodeBudgetExceeded, Offset: -1,
				Msg: fmt.Sprintf("the refs of one frame stand for more than %d bytes or %d values", t.maxExpand, refMaxValues)}
		}
		return t.vals[n], t.extents[n], true, nil
	case accp.KindPair:
		r, rx, _, err := t.decode(v.Fields[0].Val)
		if err != nil {
			return v, x, false, err
		}
		v.Fields[0].Val = r
		return v, extent{len(v.Fields[0].Key) + 1 + rx.bytes, 1 + rx.values}, false, nil
	case accp.KindString:
		x = extent{accp.StringSize(v.Str), 1}
		if x.bytes >= refMinBytes && t.number(x) {
			v.Str = strings.Clone(v.Str)
			t.vals = append(t.vals, v)
			t.extents = append(t.extents, x)
			return v, x, true, nil
		}
		return v, x, false, nil
	case accp.KindArray, accp.KindMap:
	default:
		return v, extent{accp.ValueSize(v), 1}, false, nil
	}
	x = extent{2, 1}
	n := max(len(v.List), len(v.Fields))
	borrowed := make([]uint64, (n+63)/64) // a bit for each child that is not owned
	if v.Kind == accp.KindArray {
		for i, e := range v.List {
			var ex extent
			var own bool
			if v.List[i], ex, own, err = t.decode(e); err != nil {
				return v, x, false, err
			}
			x.add(ex)
			if !own {
				borrowed[i/64] |= 1 << (i % 64)
			}
		}
		x.bytes += max(len(v.List)-1, 0)
	} else {
		for i, f := range v.Fields {
			var ex extent
			var own bool
			if v.Fields[i].Val, ex, own, err = t.decode(f.Val); err != nil {
				return v, x, false, err
			}
			x.add(ex)
			x.bytes += accp.MapKeySize(f.Key) + 1
			if !own {
				borrowed[i/64] |= 1 << (i % 64)
			}
		}
		x.bytes += max(len(v.Fields)-1, 0)
	}
	if x.bytes < refMinBytes || !t.number(x) {
		return v, x, false, nil
	}
	// Numbered: it outlives the frame, so it must not hold on to the line.
	for i := range n {
		if borrowed[i/64]&(1<<(i%64)) == 0 {
			continue
		}
		if v.Kind == accp.KindArray {
			v.List[i] = cloneValue(v.List[i])
		} else {
			v.Fields[i].Val = cloneValue(v.Fields[i].Val)
		}
	}
	for i := range v.Fields {
		v.Fields[i].Key = strings.Clone(v.Fields[i].Key)
	}
	t.vals = append(t.vals, v)
	t.extents = append(t.extents, x)
	return v, x, true, nil
}

// number reports whether the decoder gives a value of extent x a number:
// as room, except that nothing is numbered once the numbering broke.
func (t *refTable) number(x extent) bool {
	return t.lost == 0 && t.room(x)
}

// cloneValue returns a deep copy of v that shares no string memory with
// it.
func cloneValue(v accp.Value) accp.Value {
	v.Str = strings.Clone(v.Str)
	if v.List != nil {
		list := make([]accp.Value, len(v.List))
		for i, e := range v.List {
			list[i] = cloneValue(e)
		}
		v.List = list
	}
	if v.Fields != nil {
		fields := make([]accp.Field, len(v.Fields))
		for i, f := range v.Fields {
			fields[i] = accp.Field{Key: strings.Clone(f.Key), Val: cloneValue(f.Val)}
		}
		v.Fields = fields
	}
	return v
}
