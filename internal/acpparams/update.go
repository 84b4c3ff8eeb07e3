package acpparams

import (
	"errors"
	"fmt"
	"slices"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// ErrNotUpdate reports params that are not an object, or hold no update
// object: no session/update the IDE would act on.
var ErrNotUpdate = errors.New("acpparams: not a session/update's params")

// ErrRepeated reports a member the reader uses named twice in one object
// (after unescaping): the IDE might read either one.
var ErrRepeated = errors.New("acpparams: a member is named twice")

// Update is what the bridge reads of a session/update notification's
// params.
type Update struct {
	// SessionID is params.sessionId.
	SessionID string
	// SessionUpdate is update.sessionUpdate, the variant: "tool_call",
	// "tool_call_update", "agent_message_chunk", ...
	SessionUpdate string
	// ToolCall holds the update's members a tool call has. For a message
	// chunk only Content and Text are of use.
	ToolCall
	// Raw is the update object as received, for the variants read with
	// their own types (plan, usage_update, available_commands_update).
	Raw []byte
}

// IsToolCall reports whether u is a tool_call or a tool_call_update.
func (u *Update) IsToolCall() bool { return IsToolCall(u.SessionUpdate) }

// IsToolCall reports whether a sessionUpdate names a tool call variant.
func IsToolCall(sessionUpdate string) bool {
	return sessionUpdate == "tool_call" || sessionUpdate == "tool_call_update"
}

// ToolCall is what the bridge reads of a tool call: a tool_call or
// tool_call_update's update object, or a permission request's toolCall.
// Raw values are sub-slices of the bytes read.
type ToolCall struct {
	// ID is toolCallId ("" when absent or null).
	ID string
	// Title and Kind are "" when absent or null (Kind also when not a kind
	// ACP defines, as the IDEs read it), which HasTitle and
	// HasKind tell from a string that is empty.
	Title, Kind       string
	HasTitle, HasKind bool
	// Name is name, the programmatic name of the invoked tool (ACP's
	// Tool Call Name, stable since September 2026), "" when absent or
	// null; HasName tells an empty string from those.
	Name    string
	HasName bool
	// Status is "" when absent, null or not a status ACP defines.
	Status string
	// RawInput, RawOutput and Meta (_meta) are the raw values, nil when
	// absent.
	RawInput, RawOutput, Meta []byte
	// Content is the raw content member, nil when absent or null (null
	// leaves the call's content as it was, as Zed reads it).
	Content []byte
	// Items are content's items when it is an array, one for each element
	// at its index (the zero ContentItem for an element that is not an
	// object).
	Items []ContentItem
	// Text is the raw text member of content when content is one content
	// block, as a message chunk's is.
	Text []byte
	// Locations are the paths of locations ("" for a location without
	// one); nil when locations is absent or null.
	Locations []string
	// Bad names the first member read that has the wrong type ("title is
	// not a string", "a diff's path is not a string"), or is "". A tool
	// call with a Bad member cannot be judged.
	Bad string
}

// ContentItem is what the bridge reads of one item of a tool call's
// content.
type ContentItem struct {
	// Type is "content", "diff", "terminal", ...
	Type string
	// Text is the raw text member of a content item's content block.
	Text []byte
	// Path is a diff's path (read for diffs only).
	Path string
	// OldText and NewText are a diff's raw texts, nil when absent.
	OldText, NewText []byte
	// TerminalID is a terminal's terminalId (read for terminals only).
	TerminalID string
}

// DiffPaths returns the paths of t's diff items.
func (t *ToolCall) DiffPaths() []string {
	return t.each("diff", func(c *ContentItem) string { return c.Path })
}

// TerminalIDs returns the terminalIds of t's terminal items ("" for one
// without).
func (t *ToolCall) TerminalIDs() []string {
	return t.each("terminal", func(c *ContentItem) string { return c.TerminalID })
}

// each returns field of each item of type typ, or nil for none.
func (t *ToolCall) each(typ string, field func(*ContentItem) string) []string {
	var out []string
	for i := range t.Items {
		if t.Items[i].Type == typ {
			out = append(out, field(&t.Items[i]))
		}
	}
	return out
}

// ReadUpdate reads a session/update notification's params in one pass
// (see the package doc). Content that is not an array makes Bad only for
// a tool call: a message chunk's content is one block. It fails with
// ErrNotUpdate when params or its update is not an object, ErrRepeated
// when a member it uses is named twice, or an error saying where params
// are not JSON.
func ReadUpdate(params []byte) (Update, error) {
	var u Update
	err := readUpdateInto(params, &u)
	return u, err
}

// readUpdateInto is ReadUpdate reading into *u, which must be the zero
// Update; on failure it leaves *u the zero Update.
func readUpdateInto(params []byte, u *Update) error {
	return readUpdateKnown(params, u, rawjson.KnownStrings{})
}

// readUpdateKnown is readUpdateInto stepping over the string literals
// known records without reading them.
func readUpdateKnown(params []byte, u *Update, known rawjson.KnownStrings) error {
	return (&reader{b: params, known: known}).update(u)
}

// update reads r's params into *u, which must be the zero Update; on
// failure it leaves *u the zero Update.
func (r *reader) update(u *Update) error {
	if err := r.top(u); err != nil {
		*u = Update{}
		return err
	}
	u.Bad = r.bad
	if r.contentBad != "" && u.IsToolCall() && u.Bad == "" {
		u.Bad = r.contentBad
	}
	return nil
}

// ReadToolCall reads a tool call object (a permission request's toolCall,
// a tool call's update object) as ReadUpdate reads an update; its
// sessionUpdate is not read. It fails with ErrNotUpdate when obj is not
// an object.
func ReadToolCall(obj []byte) (ToolCall, error) {
	r := reader{b: obj}
	var t ToolCall
	if _, err := r.toolCall(skipSpace(obj, 0), &t, nil); err != nil {
		return ToolCall{}, err
	}
	t.Bad = r.bad
	if t.Bad == "" {
		t.Bad = r.contentBad
	}
	return t, nil
}

// reader reads one message's params.
type reader struct {
	b []byte
	// known are the long string literals of b's message, stepped over
	// without reading them; empty when none are known.
	known rawjson.KnownStrings
	// ids decodes the session id; nil decodes it afresh.
	ids *SessionIDs
	// spareItems, if not nil, is an empty slice with room for the first
	// content item read, which then needs no memory of its own.
	spareItems []ContentItem
	// bad is the first member of the wrong type; contentBad the first
	// problem with content, which only a tool call's content has.
	bad, contentBad string
}

// names are the members the reader uses, one bit a name, for telling a
// repeated name and for saying which names an object's reading uses.
type names uint32

const (
	nSessionID names = 1 << iota
	nUpdate
	nSessionUpdate
	nToolCallID
	nTitle
	nKind
	nStatus
	nRawInput
	nRawOutput
	nMeta
	nContent
	nLocations
	nType
	nText
	nPath
	nOldText
	nNewText
	nTerminalID
	nName
)

// nameBit returns the bit of a member name (unescaped), or 0 for a name
// the reader never uses.
func nameBit(key []byte) names {
	switch string(key) {
	case "sessionId":
		return nSessionID
	case "update":
		return nUpdate
	case "sessionUpdate":
		return nSessionUpdate
	case "toolCallId":
		return nToolCallID
	case "title":
		return nTitle
	case "kind":
		return nKind
	case "status":
		return nStatus
	case "rawInput":
		return nRawInput
	case "rawOutput":
		return nRawOutput
	case "_meta":
		return nMeta
	case "content":
		return nContent
	case "locations":
		return nLocations
	case "type":
		return nType
	case "text":
		return nText
	case "path":
		return nPath
	case "oldText":
		return nOldText
	case "newText":
		return nNewText
	case "terminalId":
		return nTerminalID
	case "name":
		return nName
	}
	return 0
}

// object reads the object at b[at] in one pass, stepping over every member
// but those named in want, each of which it takes at most once (a second
// one is ErrRepeated): one named in descend is read by read, which gets
// the offset of its value and returns the offset past it; the value of any
// other is handed to leaf.
func (r *reader) object(at int, want, descend names, read func(bit names, at int) (int, error), leaf func(bit names, v []byte)) (int, error) {
	b := r.b
	var seen names
	return rawjson.ReadObject(b, at, func(name []byte, at int) (int, error) {
		bit := nameBit(rawjson.Key(name)) & want
		if bit == 0 {
			return r.known.SkipValue(b, at)
		}
		if seen&bit != 0 {
			return 0, fmt.Errorf("%w: %s", ErrRepeated, name)
		}
		seen |= bit
		if bit&descend != 0 {
			return read(bit, at)
		}
		end, err := r.known.SkipValue(b, at)
		if err == nil {
			leaf(bit, b[at:end])
		}
		return end, err
	})
}

func (r *reader) setBad(why string) {
	if r.bad == "" {
		r.bad = why
	}
}

// str decodes v, a member's value, as a string; a value other than a
// string or null is bad.
func (r *reader) str(name string, v []byte) (string, bool) {
	s, ok := rawjson.String(v)
	if !ok && string(v) != "null" {
		r.setBad(name + " is not a string")
	}
	return s, ok
}

// toolKinds and toolStatuses are the kinds and statuses of a tool call ACP
// defines.
var (
	toolKinds    = []string{"read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"}
	toolStatuses = []string{"pending", "in_progress", "completed", "failed"}
)

// word is str for a tool call's kind or status, one of words, without
// allocating for them. A string that is not one of words is read as
// absent, as the IDEs read it: the TypeScript SDK's schema reads kind and
// status with defaultOnError and Zed's with serde_with's DefaultOnError,
// so "EXECUTE" is no kind at all and an update carrying it leaves the
// call's kind as it was ("execute"). Read as a kind of its own, it had the
// bridge judge an execute call the person was shown as a command as no
// command, and leave its title unchecked.
func (r *reader) word(name string, v []byte, words []string) (string, bool) {
	if s, ok := rawjson.StringIn(v, words); ok && slices.Contains(words, s) {
		return s, true
	}
	s, ok := r.str(name, v)
	if ok && !slices.Contains(words, s) {
		return "", false
	}
	return s, ok
}

// skip returns the value at b[at] and the offset past it.
func (r *reader) skip(at int) ([]byte, int, error) {
	end, err := r.known.SkipValue(r.b, at)
	if err != nil {
		return nil, 0, err
	}
	return r.b[at:end], end, nil
}

// top reads the params object: sessionId and update.
func (r *reader) top(u *Update) error {
	b := r.b
	at := skipSpace(b, 0)
	if at >= len(b) || b[at] != '{' {
		return ErrNotUpdate
	}
	sawUpdate := false
	_, err := r.object(at, nSessionID|nUpdate, nUpdate, func(_ names, at int) (int, error) {
		if b[at] != '{' {
			// Read on, so that a second update is still told.
			return r.known.SkipValue(b, at)
		}
		sawUpdate = true
		end, err := r.toolCall(at, &u.ToolCall, &u.SessionUpdate)
		if err == nil {
			u.Raw = b[at:end]
		}
		return end, err
	}, func(_ names, v []byte) {
		var ok bool
		if u.SessionID, ok = r.ids.String(v); !ok && string(v) != "null" {
			r.setBad("sessionId is not a string")
		}
	})
	if err == nil && !sawUpdate {
		err = ErrNotUpdate
	}
	return err
}

// MaxToolName bounds a tool call's name: a longer one makes the call
// Bad, as a name no tool has (MCP's tool names are at most 128 bytes).
const MaxToolName = 1 << 10

// toolCallNames are the members of a tool call the reader uses.
const toolCallNames = nToolCallID | nTitle | nName | nKind | nStatus | nRawInput | nRawOutput | nMeta | nContent | nLocations

// toolCall reads the object at b[at] into t, and its sessionUpdate into
// kind unless kind is nil.
func (r *reader) toolCall(at int, t *ToolCall, kind *string) (int, error) {
	if at >= len(r.b) || r.b[at] != '{' {
		return 0, ErrNotUpdate
	}
	want := toolCallNames
	if kind != nil {
		want |= nSessionUpdate
	}
	return r.object(at, want, nContent|nLocations, func(bit names, at int) (int, error) {
		if bit == nContent {
			return r.content(at, t)
		}
		return r.locations(at, t)
	}, func(bit names, v []byte) {
		switch bit {
		case nSessionUpdate:
			*kind = sessionUpdate(v)
		case nToolCallID:
			t.ID, _ = r.str("toolCallId", v)
		case nTitle:
			t.Title, t.HasTitle = r.str("title", v)
		case nName:
			if t.Name, t.HasName = r.str("name", v); len(t.Name) > MaxToolName {
				r.setBad(fmt.Sprintf("name is over %d bytes", MaxToolName))
			}
		case nKind:
			t.Kind, t.HasKind = r.word("kind", v, toolKinds)
		case nStatus:
			t.Status, _ = r.word("status", v, toolStatuses)
		case nRawInput:
			t.RawInput = v
		case nRawOutput:
			t.RawOutput = v
		case nMeta:
			t.Meta = v
		}
	})
}

// sessionUpdate decodes the sessionUpdate discriminator, without
// allocating for the common ones.
func sessionUpdate(v []byte) string {
	switch string(v) {
	case `"agent_message_chunk"`:
		return "agent_message_chunk"
	case `"agent_thought_chunk"`:
		return "agent_thought_chunk"
	case `"user_message_chunk"`:
		return "user_message_chunk"
	case `"tool_call_update"`:
		return "tool_call_update"
	case `"tool_call"`:
		return "tool_call"
	case `"plan"`:
		return "plan"
	case `"usage_update"`:
		return "usage_update"
	}
	s, _ := rawjson.String(v)
	return s
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
