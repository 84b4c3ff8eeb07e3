package acpwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
	"unsafe"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Direction says which way a message travels.
type Direction uint8

const (
	// ClientToAgent is a message from the IDE to the agent.
	ClientToAgent Direction = iota
	// AgentToClient is a message from the agent to the IDE.
	AgentToClient
)

// String returns the direction's name as used in recordings:
// "client_to_agent" or "agent_to_client".
func (d Direction) String() string {
	if d == ClientToAgent {
		return "client_to_agent"
	}
	return "agent_to_client"
}

// Reverse returns the opposite direction: the way a response to a request
// travelling in d goes.
func (d Direction) Reverse() Direction { return 1 - d }

// Kind classifies a JSON-RPC message.
type Kind uint8

const (
	// KindOther is valid JSON that is not a JSON-RPC request, notification,
	// response or batch. The bridge never forwards it; a message of this
	// kind is refused (see Options.OnRefused) and never reaches middleware.
	KindOther Kind = iota
	// KindRequest has a method and an id member, even "id": null: the
	// TypeScript SDK answers such a message, so it is a request for every
	// decision the bridge makes.
	KindRequest
	// KindNotification has a method and no id member.
	KindNotification
	// KindResponse has an id and no method.
	KindResponse
	// KindBatch is a JSON array of messages. ACP never uses batches and the
	// bridge never forwards one: it refuses it before any middleware.
	KindBatch
)

var kindNames = [...]string{"other", "request", "notification", "response", "batch"}

// String returns the kind's lower-case name.
func (k Kind) String() string { return kindNames[k] }

// Message is one JSON-RPC message as it crossed the bridge. Raw holds its
// exact bytes; the other fields are views into Raw for routing and must not
// be modified. To change a message, build a new one with WithRaw or Patch.
type Message struct {
	// Dir is the direction the message travels.
	Dir Direction
	// Kind classifies the message.
	Kind Kind
	// Raw is the message's exact bytes, without the line terminator. They
	// share a read block with neighbouring messages. With middleware added
	// by Bridge.Use the bridge never writes to them again, so they stay
	// valid for as long as anyone holds them (middleware that keeps a
	// message, or slices of it, for long should copy what it keeps, so as
	// not to pin the whole block); middleware added by UseNonRetaining
	// promises to keep nothing, and the bridge may read other messages over
	// them once this one is written.
	Raw []byte
	// ID is the raw id (e.g. `7` or `"abc"`); nil for notifications.
	ID json.RawMessage
	// Method is the method of a request or notification.
	Method string
	// Params, Result and Error are the raw members of that name, if present.
	Params, Result, Error json.RawMessage
	// Batch holds the parsed elements of a KindBatch message.
	Batch []*Message
	// Request is, for a response, the request it answers as it was forwarded,
	// when the bridge saw that request. Nil otherwise.
	Request *Message
	// Original is, for a message a hook replaced, the message as received.
	Original *Message
	// Received is when the bridge read the message: when the read that
	// completed its line returned (messages read together share it).
	Received time.Time

	// state is shared by a request and every replacement of it, so the core
	// can tell whether it was forwarded or answered.
	state *requestState
	// blk is the pooled read block Raw lies in, nil if Raw is never
	// overwritten; see Session.run.
	blk *block
	// invalid says, for a KindOther message, why the bridge does not read
	// it as JSON-RPC.
	invalid string
	// fate says what became of a message received from a peer, for the
	// recording: set on the message as it arrived, on the forwarding loop.
	fate fate
	// onPassed runs once, just before the message or its replacement is
	// written toward its peer; see WhenPassed.
	onPassed func()
	// env is the set of envelope members the message has.
	env envelope
	// notJSON marks a line that is not JSON, kept only to be refused.
	notJSON bool
	// chunk marks a session/update text chunk that passed checkChunk.
	chunk bool
	// chunkLine marks a text chunk of exactly the form parseChunkLine
	// reads (see ChunkLine).
	chunkLine bool
	// strict marks a message whose every byte the bridge checked strictly
	// before any middleware saw it (see refusalReason).
	strict bool
	// handedOut marks a message given to a hook that may keep it
	// (Options.OnRefused, Options.OnPanic): the bridge reuses neither it
	// nor its read block.
	handedOut bool
	// facts is what parse learnt of the line's strings as it validated
	// it, for the strict check (see parsedFacts).
	facts rawjson.Facts
	// memo is a reading of the message's bytes kept for the features that
	// read them the same way (see Memo).
	memo *memo
	// known is where the strict check found the message's long string
	// literals (see KnownStrings); it holds with strict. Offsets, not the
	// bytes: a copy of the message that drops Raw keeps none of them. One
	// word, for a struct made for every line.
	known rawjson.StringSpans
	// parsedAt and parsedLen say where the line the message was parsed
	// from lies: chunk, chunkLine and strict describe it, and hold only
	// while Raw is still it (intact). An address, not a slice, so that a
	// copy of the message that drops Raw (a request held while the person
	// decides) does not keep the bytes alive.
	parsedAt  uintptr
	parsedLen int
}

// intact reports whether m still carries the bytes it was parsed from,
// with Params within them: a middleware that set Raw or Params to other
// bytes (Message asks for WithRaw or Patch instead) makes the marks the
// wire set on the parsed bytes describe something else.
func (m *Message) intact() bool {
	if len(m.Raw) != m.parsedLen || len(m.Raw) > 0 && addressOf(m.Raw) != m.parsedAt {
		return false
	}
	if len(m.Params) == 0 {
		return true
	}
	off := cap(m.Raw) - cap(m.Params)
	return off >= 0 && off+len(m.Params) <= len(m.Raw) && &m.Raw[off] == &m.Params[0]
}

// addressOf returns where b's first byte lies, or 0 for an empty b.
func addressOf(b []byte) uintptr {
	if len(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(&b[0]))
}

// fate is what the bridge did with a message it received.
type fate uint8

const (
	fateUnknown  fate = iota
	fateWritten       // written to its peer with its own bytes
	fateReplaced      // a replacement was written instead
	fateRefused       // refused, and recorded so, by the bridge
)

// requestState tracks one peer request from arrival to its single response.
type requestState struct {
	forwarded bool
	answered  bool // a response was sent by the bridge
}

// Parse classifies one line of JSON. It returns an error if the line is not
// valid JSON; it does not require the line to be JSON-RPC (see KindOther).
func Parse(dir Direction, line []byte) (*Message, error) {
	m, ok := parse(dir, line)
	if !ok {
		return nil, fmt.Errorf("not valid JSON")
	}
	return m, nil
}

// parse validates line and classifies it in a single pass over its bytes.
// It reports false, with a nil message, if line is not valid JSON.
//
// Every peer must read the envelope the way the bridge does, so a line
// whose envelope some JSON-RPC stack could read differently is classified
// KindOther with the reason in m.invalid, and never forwarded: a non-string
// method, an id that is not a string, number or null, a duplicate envelope
// member (JavaScript keeps the last one), a member whose name differs only
// in case from an envelope member (Go's encoding/json would read it), a
// response with both or neither of result and error, an ACP notification
// with an id or an ACP request without one (see methodShapes).
func parse(dir Direction, line []byte) (*Message, bool) {
	if m := parseChunkLine(dir, line); m != nil {
		return m, true
	}
	return parseMembers(dir, line)
}

// parseMembers is parse for any line: it reads the line member by member
// as it validates it.
func parseMembers(dir Direction, line []byte) (*Message, bool) {
	m := newParsed()
	*m = Message{Dir: dir, Raw: line, parsedAt: addressOf(line), parsedLen: len(line)}
	i := skipJSONSpace(line, 0)
	if i < len(line) && line[i] == '[' {
		if !rawjson.Valid(line) {
			return nil, false
		}
		m.Kind = KindBatch
		elems, err := rawjson.Elements(line)
		if err == nil {
			for _, e := range elems {
				em, _ := parse(dir, e)
				m.Batch = append(m.Batch, em)
			}
		}
		return m, true
	}
	if i >= len(line) || line[i] != '{' {
		m.invalid = "not a JSON-RPC object"
		return m, rawjson.Valid(line)
	}
	var seen envelope
	var method, version []byte
	// The names down to a chunk's content block are checked while the
	// line is validated, so checking a chunk costs no pass of its own over
	// the bytes.
	var ck chunkCheck
	ok, facts := rawjson.ValidNamesFacts(line, chunkDepth, func(depth, object, at int, name, value []byte) {
		id := chunkNameOf(name)
		ck.note(line, depth, object, at, name, id)
		if depth > 1 {
			return
		}
		var bit envelope
		// A name a chunk carries is written without escapes; any other
		// is known by the name it decodes to.
		key := name[1 : len(name)-1]
		if id == notChunkName {
			key = rawjson.Key(name)
		}
		switch string(key) {
		case "id":
			bit, m.ID = envID, json.RawMessage(value)
		case "method":
			bit, method = envMethod, value
		case "params":
			bit, m.Params = envParams, value
		case "result":
			bit, m.Result = envResult, value
		case "error":
			bit, m.Error = envError, value
		case "jsonrpc":
			bit, version = envJSONRPC, value
		default:
			canon := envelopeFold(rawjson.Key(name))
			switch {
			case canon == "":
				return
			case m.invalid == "":
				m.invalid = fmt.Sprintf("member %s differs only in case from %q", name, canon)
			}
			// A peer that folds case reads it as that member: the refusal
			// answers it as such.
			switch canon {
			case "id":
				if seen&envID == 0 {
					m.ID = json.RawMessage(value)
				}
				seen |= envID
			case "method":
				seen |= envMethod
			}
			return
		}
		if seen&bit != 0 && m.invalid == "" {
			m.invalid = fmt.Sprintf("duplicate member %s", name)
		}
		seen |= bit
	})
	if !ok {
		return nil, false
	}
	m.env = seen
	m.facts = facts
	m.classify(seen, method, version)
	if m.Kind == KindNotification && m.Method == "session/update" {
		m.chunk = ck.chunk(line)
	}
	return m, true
}

// envelope is a set of JSON-RPC envelope members, one bit each.
type envelope uint8

const (
	envID envelope = 1 << iota
	envMethod
	envParams
	envResult
	envError
	envJSONRPC
)

// classify sets m's kind from the envelope members parse saw (method and
// version are the raw values of method and jsonrpc); a message with an
// invalid reason stays KindOther.
func (m *Message) classify(seen envelope, method, version []byte) {
	hasID := seen&envID != 0
	idWhy := ""
	if hasID {
		idWhy = idProblem(m.ID)
	}
	switch {
	case m.invalid != "":
	case !isVersion2(version):
		// Unless jsonrpc is "2.0" the TypeScript SDK takes no request
		// or notification in and reads a response as a failure;
		// acp-go-sdk drops a line whose jsonrpc is not a string.
		m.invalid = `jsonrpc is not "2.0", so JSON-RPC peers differ on whether the message is one`
	case idWhy != "":
		m.invalid = idWhy
	case seen&envMethod != 0:
		name, ok := rawjson.StringIn(method, commonMethods)
		if !ok {
			m.invalid = "method is not a string"
			break
		}
		if name == "" {
			// acp-go-sdk's envelope holds the method in a string
			// that an empty one leaves as if it were absent: with an id
			// it reads a response (to whatever request of its own
			// the id names), where a JSON-RPC stack that sees the
			// member reads a request.
			m.invalid = "method is empty, which some JSON-RPC peers read as no method (a response when an id is present)"
			break
		}
		if seen&(envResult|envError) != 0 {
			// acp-go-sdk decodes error into its error type beside a
			// method too, and drops the line where that fails; the
			// TypeScript SDK reads the request or notification.
			m.invalid = "a request or notification carries result or error, which JSON-RPC peers read differently"
			break
		}
		m.Method = name
		switch shape := methodShapes[name]; {
		case hasID && shape == onlyNotification:
			m.invalid = name + " is a notification and came with an id"
		case !hasID && shape == onlyRequest:
			m.invalid = name + " is a request and came without an id"
		case hasID:
			m.Kind = KindRequest
		default:
			m.Kind = KindNotification
		}
	case hasID && seen&envError != 0 && seen&envResult == 0 && !isObject(m.Error):
		// "error": null is a success with no result to acp-go-sdk
		// (its Error pointer stays nil) and no response at all to the
		// TypeScript SDK, where the bridge would read a failure.
		m.invalid = "error is not an object"
	case hasID && (seen&envResult != 0) != (seen&envError != 0):
		m.Kind = KindResponse
	case hasID:
		m.invalid = "response without exactly one of result and error"
	default:
		m.invalid = "not a JSON-RPC message"
	}
	if m.invalid != "" {
		m.Kind = KindOther
	}
}

// methodShape says whether an ACP method is only ever a request or only
// ever a notification.
type methodShape uint8

const (
	eitherShape methodShape = iota
	onlyRequest
	onlyNotification
)

// methodShapes are the ACP methods whose shape the protocol fixes. A
// method sent in the other shape is refused: the bridge judges
// session/update as a notification and fs/* as requests, while a peer's
// JSON-RPC stack may dispatch them by name whatever their shape (the
// TypeScript SDK reads "id": null with a method as a request, Go's
// acp-go-sdk as a notification), so such a line could reach it unjudged.
var methodShapes = map[string]methodShape{
	"session/update":             onlyNotification,
	"session/cancel":             onlyNotification,
	"elicitation/complete":       onlyNotification,
	"initialize":                 onlyRequest,
	"authenticate":               onlyRequest,
	"logout":                     onlyRequest,
	"session/new":                onlyRequest,
	"session/load":               onlyRequest,
	"session/resume":             onlyRequest,
	"session/fork":               onlyRequest,
	"session/prompt":             onlyRequest,
	"session/list":               onlyRequest,
	"session/close":              onlyRequest,
	"session/delete":             onlyRequest,
	"session/set_mode":           onlyRequest,
	"session/set_model":          onlyRequest,
	"session/set_config_option":  onlyRequest,
	"session/request_permission": onlyRequest,
	"fs/read_text_file":          onlyRequest,
	"fs/write_text_file":         onlyRequest,
	"terminal/create":            onlyRequest,
	"terminal/output":            onlyRequest,
	"terminal/wait_for_exit":     onlyRequest,
	"terminal/kill":              onlyRequest,
	"terminal/release":           onlyRequest,
	"elicitation/create":         onlyRequest,
}

// isJSONSpace reports whether c is JSON white space (RFC 8259): what every
// JSON parser skips before a value.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// envelopeNames are the JSON-RPC envelope members.
var envelopeNames = [...]string{"id", "method", "params", "result", "error", "jsonrpc"}

// envelopeFold returns the envelope member name equals under Unicode case
// folding (as Go's encoding/json matches names to fields) without being
// it, or "".
func envelopeFold(name []byte) string {
	if len(name) < 2 || len(name) > 3*len("jsonrpc") {
		return ""
	}
	for _, e := range envelopeNames {
		if bytes.EqualFold(name, []byte(e)) && string(name) != e {
			return e
		}
	}
	return ""
}

// commonMethods are the methods that make up most of the traffic: a
// method member naming one decodes (rawjson.StringIn) without allocating.
var commonMethods = []string{"session/update", "session/request_permission", "session/prompt", "fs/read_text_file", "fs/write_text_file"}

// CheckedStrictly reports whether the bridge checked all of m's bytes
// strictly before any middleware saw it, as it does for the methods of
// Options.StrictMethods and StrictResponses: m is exactly one JSON value, no
// object repeats a member name or holds two names equal under case folding
// or a name differing only in case from a field features read, and every
// string is valid UTF-8. A message failing that check reaches no
// middleware. It is false for a text chunk (see TextChunk), for a
// replacement built with WithRaw or Patch, for a message no Bridge
// received, and for one whose Raw or Params a middleware set to other bytes.
func (m *Message) CheckedStrictly() bool { return m.strict && m.intact() }

// KnownStrings returns where the long string literals of m's bytes are,
// as its strict check found them (see rawjson.KnownStrings), so that a
// feature reading m steps over them instead of walking them again; an
// empty record when m is not CheckedStrictly or has no such literal. The
// record answers only for slices of m.Raw itself.
func (m *Message) KnownStrings() rawjson.KnownStrings {
	if !m.CheckedStrictly() {
		return rawjson.KnownStrings{}
	}
	return m.known.In(m.Raw)
}

// TextChunk reports whether m is a session/update notification streaming
// text (agent_message_chunk, agent_thought_chunk, user_message_chunk) under
// every reading: down to its content block no object repeats a name or
// holds two names equal under case folding or a name differing only in
// case from a field features read, and its params.update.sessionUpdate is
// one of those variants. Deeper names and the text itself are not checked.
// It is false once a middleware set m's Raw or Params to other bytes.
func (m *Message) TextChunk() bool { return m.chunk && m.intact() }

// IsRequest reports whether m is a request for method.
func (m *Message) IsRequest(method string) bool {
	return m.Kind == KindRequest && m.Method == method
}

// IsNotification reports whether m is a notification for method.
func (m *Message) IsNotification(method string) bool {
	return m.Kind == KindNotification && m.Method == method
}

// IsResponseTo reports whether m is a response to a request for method that
// the bridge saw.
func (m *Message) IsResponseTo(method string) bool {
	return m.Kind == KindResponse && m.Request != nil && m.Request.Method == method
}

// Get returns the raw value at path inside Raw (see rawjson.Get).
func (m *Message) Get(path ...string) ([]byte, bool) { return rawjson.Get(m.Raw, path...) }

// GetString returns the string at path inside Raw.
func (m *Message) GetString(path ...string) (string, bool) {
	return rawjson.GetString(m.Raw, path...)
}

// WithRaw returns a replacement for m carrying raw instead of m's bytes. The
// replacement keeps m's direction, its link to the request it answers and
// its response bookkeeping, and records m as its Original.
func (m *Message) WithRaw(raw []byte) (*Message, error) {
	n, ok := parse(m.Dir, raw)
	if !ok {
		return nil, fmt.Errorf("replacing %s %s: not valid JSON", m.Kind, m.Method)
	}
	n.Request = m.Request
	n.Received = m.Received
	n.Original = m.original()
	n.state = m.state
	return n, nil
}

// Patch returns a replacement for m with the value at path set to value
// (valid JSON), leaving every other byte as it was.
func (m *Message) Patch(value []byte, path ...string) (*Message, error) {
	raw, err := rawjson.Set(m.Raw, value, path...)
	if err != nil {
		return nil, fmt.Errorf("patching %s %s: %w", m.Kind, m.Method, err)
	}
	return m.WithRaw(raw)
}

// PatchJSON is Patch with a Go value marshalled with encoding/json.
func (m *Message) PatchJSON(value any, path ...string) (*Message, error) {
	b, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("patching %s %s: %w", m.Kind, m.Method, err)
	}
	return m.Patch(b, path...)
}

// Passed reports whether m, or a replacement made from it (Patch,
// WithRaw), has been written toward m's peer. Middleware reads it after
// next.Handle returns to learn whether the layers past it passed the
// message on or dropped it: a record of what reached a peer is made only
// once it did.
func (m *Message) Passed() bool {
	f := m.original().fate
	return f == fateWritten || f == fateReplaced
}

// WhenPassed arranges for f to run when m, or a replacement made from it,
// is written toward m's peer: on the goroutine writing it, just before its
// bytes go out, so a record of what reached the peer is made before the
// peer can answer it. f does not run for a message the bridge drops or
// refuses; read Passed after next.Handle returns to undo what f would
// have recorded.
func (m *Message) WhenPassed(f func()) {
	o := m.original()
	if prev := o.onPassed; prev != nil {
		o.onPassed = func() { prev(); f() }
		return
	}
	o.onPassed = f
}

func (m *Message) original() *Message {
	if m.Original != nil {
		return m.Original
	}
	return m
}

// isVersion2 reports whether version, the raw value of a jsonrpc member
// (nil when absent), is the string "2.0", however it is escaped.
func isVersion2(version []byte) bool {
	if string(version) == `"2.0"` {
		return true
	}
	s, ok := rawjson.String(version)
	return ok && s == "2.0"
}

// isObject reports whether raw, a JSON value as parse found it, is an
// object.
func isObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}
