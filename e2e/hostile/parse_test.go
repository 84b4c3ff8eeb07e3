package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
)

// ideMessage is one line as a client read it.
type ideMessage struct {
	kind   string          // "request", "notification", "response"; "" when the client drops the line
	id     json.RawMessage // the id, as the client would echo it back
	method string
	params json.RawMessage // params with the client's key matching already applied (see reader)
	// invalid says why the client cannot decode a request's params into
	// its types: it answers the request with that error.
	invalid string
}

// reader is how one kind of client reads a line and its params.
type reader interface {
	// read classifies one line (without its "\n") as the client does.
	read(line []byte) ideMessage
	// params decodes a message's params into v (a struct with json tags) as
	// the client does.
	params(raw json.RawMessage, v any) error
}

// jsReader reads like the ACP TypeScript SDK (2.4.0): ndJsonStream splits on
// "\n" and drops one trailing "\r" (LineBuffer), decodes with TextDecoder
// (a leading BOM dropped, invalid UTF-8 replaced), trims with
// String.prototype.trim and parses with JSON.parse; Connection.receiveMessage
// then treats any object with "method" and "id" (null included) as a
// request (core/jsonrpc.js isRequestMessage, toIncomingMessage).
type jsReader struct{}

// jsWhitespace is what String.prototype.trim removes (ECMA-262 WhiteSpace
// and LineTerminator).
func jsWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func (jsReader) read(line []byte) ideMessage {
	line = bytes.TrimSuffix(line, []byte("\r"))
	text := strings.ToValidUTF8(string(line), "\uFFFD")
	text = strings.TrimPrefix(text, "\uFEFF")
	text = strings.TrimFunc(text, jsWhitespace)
	if text == "" {
		return ideMessage{}
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return ideMessage{}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return ideMessage{}
	}
	_, hasID := m["id"]
	_, hasMethod := m["method"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	method, methodIsString := m["method"].(string)
	envelope := m["jsonrpc"] == "2.0"
	var msg ideMessage
	switch {
	case envelope && hasID && methodIsString && jsValidID(m["id"]):
		msg.kind = "request"
	case envelope && !hasID && methodIsString:
		msg.kind = "notification"
	case !hasMethod && (hasID || hasResult || hasError):
		msg.kind = "response"
	default:
		return ideMessage{}
	}
	msg.method = method
	if hasID {
		msg.id, _ = json.Marshal(m["id"])
	}
	if p, ok := m["params"]; ok {
		// Re-encoded, the params hold each key once (the last), as JSON.parse left them.
		msg.params, _ = json.Marshal(p)
	}
	return msg
}

func jsValidID(v any) bool {
	switch id := v.(type) {
	case nil, string:
		return true
	case json.Number:
		f, err := id.Float64()
		return err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
	}
	return false
}

// params decodes case-exactly (JavaScript property access). The params were
// re-encoded after JSON.parse, so no name repeats.
func (jsReader) params(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	return jsonv2.Unmarshal(raw, v, jsonv2.RejectUnknownMembers(false))
}

// goReader reads like a Go client on encoding/json, as acp-go-sdk 0.13's
// Connection.receive: bufio.Scanner lines (a trailing "\r" dropped), blank
// lines skipped, json.Unmarshal into an envelope struct, whose keys match
// case-insensitively (Unicode folding: "ſ" is "s", "K" is "k") with the last
// duplicate winning, and where "id": null leaves the id nil: a notification.
type goReader struct{}

// goEnvelope is acp-go-sdk's anyMessage: its error is decoded into the
// SDK's RequestError, so a line whose error member is not one (a number,
// a string code) fails to decode and is dropped, beside a method too.
type goEnvelope struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *goRequestError  `json:"error,omitempty"`
}

// goRequestError is acp-go-sdk's RequestError.
type goRequestError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (goReader) read(line []byte) ideMessage {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(bytes.TrimSpace(line)) == 0 {
		return ideMessage{}
	}
	var env goEnvelope
	if err := json.Unmarshal(line, &env); err != nil {
		return ideMessage{}
	}
	msg := ideMessage{method: env.Method, params: env.Params}
	if env.ID != nil {
		msg.id = *env.ID
	}
	switch {
	case env.ID != nil && env.Method == "":
		msg.kind = "response"
	case env.Method != "" && env.ID != nil:
		msg.kind = "request"
	case env.Method != "":
		msg.kind = "notification"
	}
	return msg
}

func (goReader) params(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// readerFor returns the reader of an IDE variant.
func readerFor(variant string) reader {
	switch variant {
	case "go":
		return goReader{}
	case "zed":
		return zedReader{}
	}
	return jsReader{}
}

// The params the IDE acts on, as ACP names them.
type (
	readParams struct {
		SessionID string `json:"sessionId"`
		Path      string `json:"path"`
	}
	writeParams struct {
		SessionID string `json:"sessionId"`
		Path      string `json:"path"`
		Content   string `json:"content"`
	}
	envVar struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	terminalParams struct {
		SessionID string   `json:"sessionId"`
		Command   string   `json:"command"`
		Args      []string `json:"args"`
		Env       []envVar `json:"env"`
		Cwd       string   `json:"cwd"`
	}
	terminalRef struct {
		SessionID  string `json:"sessionId"`
		TerminalID string `json:"terminalId"`
	}
	permissionParams struct {
		SessionID string          `json:"sessionId"`
		ToolCall  json.RawMessage `json:"toolCall"`
		// Title is the request's own title, which protocol version 2
		// shows in place of a toolCall.
		Title   string `json:"title"`
		Options []struct {
			OptionID string `json:"optionId"`
			Name     string `json:"name"`
			Kind     string `json:"kind"`
		} `json:"options"`
	}
	updateParams struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			SessionUpdate string          `json:"sessionUpdate"`
			ToolCallID    string          `json:"toolCallId"`
			Status        string          `json:"status"`
			Title         string          `json:"title"`
			RawInput      json.RawMessage `json:"rawInput"`
			Content       json.RawMessage `json:"content"`
		} `json:"update"`
	}
	sessionParams struct {
		SessionID string `json:"sessionId"`
	}
)

// chunkText is the text of an agent_message_chunk's content block.
func chunkText(r reader, content json.RawMessage) string {
	var block struct {
		Text string `json:"text"`
	}
	if err := r.params(content, &block); err != nil {
		return fmt.Sprintf("(unreadable content: %v)", err)
	}
	if !utf8.ValidString(block.Text) {
		return strings.ToValidUTF8(block.Text, "\uFFFD")
	}
	return block.Text
}
