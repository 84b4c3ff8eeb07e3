package hostile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// zedReader reads like Zed, on the Rust ACP crate and serde_json: the line
// is split and its envelope read as the TypeScript SDK reads them (the
// bridge refuses every envelope the two read apart), then the params are
// decoded into the crate's types. Those types buffer a tool call update
// whole (an internally tagged enum, flattened fields), so serde_json reads
// every value of it as it reads a serde_json::Value: nesting 128 containers
// deep from the params is an error (its recursion limit), and so is a
// number past a double's range (1e400). A location needs a string path
// (serdeLocations). A notification whose params fail so is dropped (the
// crate logs it); a request is answered with an error.
type zedReader struct{ jsReader }

func (r zedReader) read(line []byte) ideMessage {
	msg := r.jsReader.read(line)
	if msg.kind != "request" && msg.kind != "notification" {
		return msg
	}
	raw, ok := rawParams(line)
	if !ok {
		return msg
	}
	err := serdeReads(raw)
	if err == nil {
		err = serdeLocations(msg.method, raw)
	}
	if err != nil {
		if msg.kind == "notification" {
			return ideMessage{}
		}
		msg.invalid = err.Error()
	}
	return msg
}

// serdeLocations returns why the Rust ACP crate fails to decode the
// locations of a tool call (a session/update's update, a permission
// request's toolCall), or nil: ToolCallLocation's path is a PathBuf that
// serde reads from a string only, so a location that is not an object,
// or has no path or a path that is not a string, is an error; null
// locations are none. acp-go-sdk reads all of those (a zero location).
func serdeLocations(method string, params jsontext.Value) error {
	var p struct {
		Update   struct{ Locations json.RawMessage } `json:"update"`
		ToolCall struct{ Locations json.RawMessage } `json:"toolCall"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	locs := p.Update.Locations
	if method == "session/request_permission" {
		locs = p.ToolCall.Locations
	}
	if len(locs) == 0 || string(locs) == "null" {
		return nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(locs, &list); err != nil {
		return errors.New("locations: invalid type")
	}
	for _, l := range list {
		var path string
		if v := l["path"]; len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &path) != nil {
			return errors.New("locations: a location without a string path")
		}
	}
	return nil
}

// rawParams returns the params member of a line as written, if it has one.
func rawParams(line []byte) (jsontext.Value, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(bytes.TrimSuffix(line, []byte("\r"))), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if _, err := dec.ReadToken(); err != nil {
		return nil, false
	}
	var params jsontext.Value
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		name := tok.String()
		v, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		if name == "params" {
			params = v.Clone()
		}
	}
	return params, params != nil
}

// serdeRecursionLimit is serde_json's: the containers it reads nested in
// one another, counting the outermost, before it fails.
const serdeRecursionLimit = 128

// serdeReads returns why serde_json fails to read v as a serde_json::Value,
// or nil.
func serdeReads(v jsontext.Value) error {
	dec := jsontext.NewDecoder(bytes.NewReader(v), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		switch dec.PeekKind() {
		case 0:
			_, err := dec.ReadToken()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case '{', '[':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			if dec.StackDepth() >= serdeRecursionLimit {
				return errors.New("recursion limit exceeded")
			}
		case '}', ']':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
		case '0':
			n, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if f, err := strconv.ParseFloat(string(n), 64); err != nil && math.IsInf(f, 0) {
				return errors.New("number out of range")
			}
		default:
			if _, err := dec.ReadValue(); err != nil {
				return err
			}
		}
	}
}

// TestZedReader holds zedReader to serde_json's limits: 127 containers
// nested from the params read, 128 do not; 1e308 reads, 1e400 does not; a
// notification that fails is dropped, a request is kept to be answered
// with an error.
func TestZedReader(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	note := func(v string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","_meta":{"x":` + v + `}}}}`
	}
	tests := []struct {
		name, line    string
		kind, invalid string
	}{
		// params, update and _meta are three containers: 124 more make 127.
		{"127 deep", note(nest(124)), "notification", ""},
		{"128 deep", note(nest(125)), "", ""},
		{"largest double", note("1.7976931348623157e308"), "notification", ""},
		{"past a double", note("1e400"), "", ""},
		{"negative past a double", note("-1e400"), "", ""},
		{"underflow reads as zero", note("1e-400"), "notification", ""},
		{"location without a path", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","locations":[{}]}}}`, "", ""},
		{"location path null", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","locations":[{"path":null}]}}}`, "", ""},
		{"location with a path", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","locations":[{"path":"/a","line":3}]}}}`, "notification", ""},
		{"locations null", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","locations":null}}}`, "notification", ""},
		{"request past a double", `{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/a","line":1e400}}`, "request", "number out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := zedReader{}.read([]byte(tt.line))
			if got.kind != tt.kind || got.invalid != tt.invalid {
				t.Errorf("read as %q (invalid %q), want %q (invalid %q)", got.kind, got.invalid, tt.kind, tt.invalid)
			}
		})
	}
}
