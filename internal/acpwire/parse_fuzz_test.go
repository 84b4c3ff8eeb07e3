package acpwire

import (
	"bytes"
	"encoding/json"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// tsSDKRequest models the TypeScript SDK reading one line: String.trim,
// JSON.parse (last duplicate wins, case-exact), then its dispatch: an
// object with "method" and "id" members is a request (the envelope check
// wants jsonrpc "2.0", a string method and an id that is null, a string or
// a finite number). encoding/json's duplicate handling (last wins) is the
// same, so it decodes for the model.
func tsSDKRequest(line []byte) bool {
	var v any
	if err := json.Unmarshal(jsTrim(line), &v); err != nil {
		return false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	method, hasMethod := obj["method"]
	id, hasID := obj["id"]
	if !hasMethod || !hasID {
		return false
	}
	if _, ok := method.(string); !ok {
		return false
	}
	switch id.(type) {
	case nil, string, float64:
		return true
	}
	return false
}

// goRequest models a Go peer decoding into a struct with encoding/json:
// names match case-insensitively, the last duplicate wins.
func goRequest(line []byte) bool {
	return structRequest[json.RawMessage](line, json.Unmarshal)
}

// v2Request models a peer decoding with go-json-experiment/json.
func v2Request(line []byte) bool {
	return structRequest[jsontext.Value](line, func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) })
}

// structRequest reports whether unmarshal, decoding line into a struct
// with id (held as raw JSON of type ID) and method fields, finds both: a
// Go peer's test for a request.
func structRequest[ID ~[]byte](line []byte, unmarshal func([]byte, any) error) bool {
	var r struct {
		ID     ID      `json:"id"`
		Method *string `json:"method"`
	}
	if err := unmarshal(line, &r); err != nil {
		return false
	}
	return r.Method != nil && r.ID != nil
}

// goSDKResponse reports whether acp-go-sdk's Connection.receive takes line
// for a response: its envelope (anyMessage) holds the method in a string
// with omitempty, so an id with a method that decodes to "" (or no method)
// is a response to whatever request of its own the id names.
func goSDKResponse(line []byte) bool {
	var r struct {
		ID     *json.RawMessage `json:"id,omitempty"`
		Method string           `json:"method,omitempty"`
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return false
	}
	return r.ID != nil && r.Method == ""
}

// FuzzOneReading: whenever JavaScript and the TypeScript SDK, Go's
// encoding/json or go-json-experiment/json would take a line as a
// request, the bridge takes it as a request too or refuses it: it never
// forwards it as anything else.
func FuzzOneReading(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file","params":{"path":"/a"}}`,
		"\r" + `{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file"}`,
		"\ufeff" + `{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file"}`,
		`{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file"}` + "\u00a0",
		`{"method":"a","method":"fs/read_text_file","id":1}`,
		`{"Method":"fs/read_text_file","id":1}`,
		`{"method":"fs/read_text_file","ID":1}`,
		`{"method":"fs/read_text_file","id":null}`,
		`{"method":5,"id":1}`,
		`{"method":"x","id":{}}`,
		`[{"method":"x","id":1}]`,
		`{"id":1,"result":{},"error":{}}`,
		`{"m\u0065thod":"x","id":1}`,
		"{\"\u212aind\":1,\"method\":\"x\",\"id\":1}",
		`{"jsonrpc":"2.0","id":"3","method":"","result":{"sessions":[{"sessionId":"s","cwd":"/"}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			return // never one line
		}
		m, ok := parse(AgentToClient, line)
		if !ok {
			m = notJSONMessage(AgentToClient, line)
		}
		if m.Kind == KindRequest && goSDKResponse(line) {
			t.Fatalf("acp-go-sdk reads %q as a response; the bridge reads a request for %q", line, m.Method)
		}
		forwardedAsOther := m.Kind != KindRequest && m.Kind != KindOther && m.Kind != KindBatch
		if !forwardedAsOther {
			return // a request, or refused
		}
		if tsSDKRequest(line) || goRequest(line) || v2Request(line) {
			t.Fatalf("a peer reads %q as a request; the bridge reads a %s", line, m.Kind)
		}
	})
}
