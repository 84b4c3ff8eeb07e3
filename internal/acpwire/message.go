package acpwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

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
	// response or batch. It is forwarded untouched.
	KindOther Kind = iota
	// KindRequest has a method and an id.
	KindRequest
	// KindNotification has a method and no id.
	KindNotification
	// KindResponse has an id and a result or an error.
	KindResponse
	// KindBatch is a JSON array of messages.
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
	// Raw is the message's exact bytes, without the line terminator. They
	// share a read block with neighbouring messages. With middleware added
	// by Bridge.Use the bridge never writes to them again, so they stay
	// valid for as long as anyone holds them (middleware that keeps a
	// message, or slices of it, for long should copy what it keeps, so as
	// not to pin the whole block); middleware added by UseNonRetaining
	// promises to keep nothing, and the bridge may read other messages over
	// them once this one is written.
	Raw []byte
	// Kind classifies the message.
	Kind Kind
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
	// fate says what became of a message received from a peer, for the
	// recording: set on the message as it arrived, on the forwarding loop.
	fate fate
	// blk is the pooled read block Raw lies in, nil if Raw is never
	// overwritten; see Session.run.
	blk *block
}

// fate is what the bridge did with a message it received.
type fate uint8

const (
	fateUnknown  fate = iota
	fateWritten       // written to its peer with its own bytes
	fateReplaced      // a replacement was written instead
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
func parse(dir Direction, line []byte) (*Message, bool) {
	m := &Message{Dir: dir, Raw: line}
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
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
		// Not an object (or one behind a line break or carriage return,
		// which is not read as JSON-RPC either): only validity matters.
		return m, rawjson.Valid(line)
	}
	var hasID, hasResult, hasError bool
	ok := rawjson.ValidMembers(line, func(name, value []byte) {
		switch string(rawjson.Key(name)) {
		case "id":
			m.ID, hasID = json.RawMessage(value), true
		case "method":
			m.Method, _ = methodName(value)
		case "params":
			m.Params = value
		case "result":
			m.Result, hasResult = value, true
		case "error":
			m.Error, hasError = value, true
		}
	})
	if !ok {
		return nil, false
	}
	switch {
	case m.Method != "" && hasID && !bytes.Equal(m.ID, []byte("null")):
		m.Kind = KindRequest
	case m.Method != "":
		m.Kind = KindNotification
		m.ID = nil
	case hasID && (hasResult || hasError):
		m.Kind = KindResponse
	}
	return m, true
}

// methodName decodes a method member. The methods that make up most of the
// traffic come back as constants, so reading them allocates nothing.
func methodName(v []byte) (string, bool) {
	switch string(v) {
	case `"session/update"`:
		return "session/update", true
	case `"session/request_permission"`:
		return "session/request_permission", true
	case `"session/prompt"`:
		return "session/prompt", true
	case `"fs/read_text_file"`:
		return "fs/read_text_file", true
	case `"fs/write_text_file"`:
		return "fs/write_text_file", true
	}
	return rawjson.String(v)
}

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

func (m *Message) original() *Message {
	if m.Original != nil {
		return m.Original
	}
	return m
}

// idKey returns a map key for a raw id.
func idKey(id json.RawMessage) string { return string(bytes.TrimSpace(id)) }
