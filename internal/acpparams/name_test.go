package acpparams

import (
	"strings"
	"testing"
)

// TestReadToolCallName: a tool call's name is read as a string, case-exact;
// another type, or a name over MaxToolName bytes, makes the call Bad.
func TestReadToolCallName(t *testing.T) {
	for _, tt := range []struct {
		obj, name, bad string
		has            bool
	}{
		{`{"toolCallId":"a","name":"mcp__evil__wipe"}`, "mcp__evil__wipe", "", true},
		{`{"toolCallId":"a","name":"mcp__\u0065vil__wipe"}`, "mcp__evil__wipe", "", true},
		{`{"toolCallId":"a","name":null}`, "", "", false},
		{`{"toolCallId":"a"}`, "", "", false},
		{`{"toolCallId":"a","Name":"mcp__evil__wipe"}`, "", "", false},
		{`{"toolCallId":"a","name":["mcp__evil__wipe"]}`, "", "name is not a string", false},
		{`{"toolCallId":"a","name":7}`, "", "name is not a string", false},
		{`{"toolCallId":"a","name":"` + strings.Repeat("n", MaxToolName+1) + `"}`, strings.Repeat("n", MaxToolName+1), "name is over", true},
	} {
		tc, err := ReadToolCall([]byte(tt.obj))
		if err != nil {
			t.Fatalf("%.60s: %v", tt.obj, err)
		}
		if tc.Name != tt.name || tc.HasName != tt.has || !strings.HasPrefix(tc.Bad, tt.bad) || tt.bad == "" && tc.Bad != "" {
			t.Errorf("%.60s: name %.20q has %v bad %q, want %.20q %v %q", tt.obj, tc.Name, tc.HasName, tc.Bad, tt.name, tt.has, tt.bad)
		}
	}
	u, err := ReadUpdate([]byte(`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"a","name":"Bash"}}`))
	if err != nil || u.Name != "Bash" {
		t.Errorf("update: name %q, err %v", u.Name, err)
	}
	if _, err := ReadUpdate([]byte(`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"a","name":"Bash","name":"Read"}}`)); err == nil {
		t.Error("a name given twice was read")
	}
}
