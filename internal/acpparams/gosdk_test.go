package acpparams_test

import (
	"encoding/json"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
)

// TestGoSDKProblem: params acp-go-sdk cannot decode into its types (so a
// Go IDE drops the message, where the TypeScript SDK reads the bad member
// as absent) are named; params it decodes, unknown kinds and content
// types included, are not.
func TestGoSDKProblem(t *testing.T) {
	const head = `{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","title":"x"`
	const perm = `{"sessionId":"s","options":[{"optionId":"a","name":"Allow","kind":"allow_once"}],"toolCall":{"toolCallId":"t"`
	tests := []struct {
		method, params string
		bad            bool
	}{
		{"session/update", head + `,"_meta":5}}`, true},
		{"session/update", head + `,"locations":[{"path":"/a","line":"1"}]}}`, true},
		{"session/update", head + `,"locations":[{"path":"/a","line":1.5}]}}`, true},
		{"session/update", head + `,"content":[{"type":"diff","path":"/a","newText":"b","_meta":[]}]}}`, true},
		{"session/request_permission", perm + `,"_meta":"x"}}`, true},
		{"session/request_permission", perm + `,"locations":[{"path":"/a","line":"1"}]}}`, true},
		{"session/update", head + `,"_meta":{"a":1},"locations":[{"path":"/a","line":3}]}}`, false},
		{"session/update", head + `,"kind":"EXECUTE","status":"weird","content":[{"type":"bogus"}]}}`, false},
		{"session/update", head + `,"_meta":null,"content":null}}`, false},
		{"session/request_permission", perm + `,"title":"ls","kind":"execute"}}`, false},
		{"fs/read_text_file", `{"_meta":5}`, false},
		// acp-go-sdk reads a content type it does not name by its members,
		// or as a diff: a diff the bridge did not read as one.
		{"session/update", head + `,"content":[{"type":"Diff","path":"/p","newText":"x"}]}}`, true},
		{"session/update", head + `,"content":[{"type":"diff\u0000","path":"/p","newText":"x"}]}}`, true},
		{"session/update", head + `,"content":[{"type":"TERMINAL","terminalId":"t1"}]}}`, true},
		{"session/request_permission", perm + `,"content":[{"type":"Diff","path":"/p","newText":"x"}]}}`, true},
		{"session/update", head + `,"content":[{"type":"diff","path":"/p","newText":"x"},{"type":"terminal","terminalId":"t1"}]}}`, false},
		{"session/request_permission", perm + `,"content":[{"type":"diff","path":"/p","newText":"x"}]}}`, false},
	}
	for _, tt := range tests {
		err := acpparams.GoSDKProblem(tt.method, []byte(tt.params), bridgeItems(t, tt.method, tt.params))
		if (err != nil) != tt.bad {
			t.Errorf("GoSDKProblem(%s, %s) = %v, want a problem: %v", tt.method, tt.params, err, tt.bad)
		}
	}
}

// TestShapesCall: only an update carrying what the bridge follows a call
// by is decoded again.
func TestShapesCall(t *testing.T) {
	const head = `{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t"`
	tests := []struct {
		params string
		shapes bool
	}{
		{head + `,"status":"completed","content":[{"type":"content","content":{"type":"text","text":"out"}}],"rawOutput":{"n":1}}}`, false},
		{head + `,"title":"x"}}`, true},
		{head + `,"kind":"execute"}}`, true},
		{head + `,"rawInput":{}}}`, true},
		{head + `,"locations":[]}}`, true},
		{head + `,"_meta":5}}`, true},
		{head + `,"content":[{"type":"diff","path":"/a","newText":""}]}}`, true},
	}
	for _, tt := range tests {
		u, err := acpparams.ReadUpdate([]byte(tt.params))
		if err != nil {
			t.Fatalf("%s: %v", tt.params, err)
		}
		if got := u.ShapesCall(); got != tt.shapes {
			t.Errorf("ShapesCall(%s) = %v, want %v", tt.params, got, tt.shapes)
		}
	}
}

// TestGoSDKReadsToolCall: acp-go-sdk reads an update whose sessionUpdate it
// does not name by the members it holds, so an unknown, null or absent
// variant with a toolCallId (or a content array) is a tool call to it;
// variants it names, and updates it cannot decode, are not.
func TestGoSDKReadsToolCall(t *testing.T) {
	tests := []struct {
		update string
		call   bool
	}{
		{`"sessionUpdate":"tool_call","toolCallId":"t","title":"x"`, true},
		{`"sessionUpdate":"tool_call_update","toolCallId":"t"`, true},
		{`"sessionUpdate":null,"toolCallId":"t","title":"x"`, true},
		{`"sessionUpdate":"TOOL_CALL","toolCallId":"t","title":"x"`, true},
		{`"sessionUpdate":"notice","toolCallId":"t"`, true},
		{`"title":"x","content":[]`, true},
		{`"sessionUpdate":5,"toolCallId":"t","title":"x"`, false},
		{`"sessionUpdate":"plan","entries":[],"toolCallId":"t"`, false},
		{`"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"},"toolCallId":"t"`, false},
		{`"sessionUpdate":"notice","content":{"type":"text","text":"x"}`, false},
	}
	for _, tt := range tests {
		params := `{"sessionId":"s","update":{` + tt.update + `}}`
		if got := acpparams.GoSDKReadsToolCall([]byte(params)); got != tt.call {
			t.Errorf("GoSDKReadsToolCall(%s) = %v, want %v", params, got, tt.call)
		}
	}
}

// TestGoSDKReadsUserMessage: acp-go-sdk reads a user_message_chunk, and
// an update whose sessionUpdate it does not name that holds a content
// member, as the person's own words; the other variants it names are not.
func TestGoSDKReadsUserMessage(t *testing.T) {
	tests := []struct {
		update string
		user   bool
	}{
		{`"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"x"}`, true},
		{`"sessionUpdate":"notice","content":{"type":"text","text":"x"}`, true},
		{`"sessionUpdate":null,"content":{"type":"text","text":"x"}`, true},
		{`"sessionUpdate":"USER_MESSAGE_CHUNK","content":{"type":"text","text":"x"}`, true},
		{`"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}`, false},
		{`"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"x"}`, false},
		{`"sessionUpdate":"plan","entries":[],"content":{"type":"text","text":"x"}`, false},
		{`"sessionUpdate":"notice","text":"x"`, false},
		{`"content":{"type":"text","text":"x"}`, true},
	}
	for _, tt := range tests {
		params := `{"sessionId":"s","update":{` + tt.update + `}}`
		if _, got := acpparams.GoSDKReads([]byte(params)); got != tt.user {
			t.Errorf("GoSDKReads(%s) user message = %v, want %v", params, got, tt.user)
		}
	}
}

// bridgeItems is the bridge's reading of the tool call content of params.
func bridgeItems(t *testing.T, method, params string) []acpparams.ContentItem {
	t.Helper()
	switch method {
	case "session/update":
		u, err := acpparams.ReadUpdate([]byte(params))
		if err != nil {
			t.Fatalf("%s: %v", params, err)
		}
		return u.Items
	case "session/request_permission":
		var p struct {
			ToolCall json.RawMessage `json:"toolCall"`
		}
		if err := json.Unmarshal([]byte(params), &p); err != nil {
			t.Fatalf("%s: %v", params, err)
		}
		tc, err := acpparams.ReadToolCall(p.ToolCall)
		if err != nil {
			t.Fatalf("%s: %v", params, err)
		}
		return tc.Items
	}
	return nil
}
