package governance

import "testing"

// TestMayBeToolCall: an update that failed the strict reading is refused
// when any reading of it makes it a tool call, and passed on only when no
// reading can.
func TestMayBeToolCall(t *testing.T) {
	tests := []struct {
		name, params string
		want         bool
	}{
		{"message chunk", `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}`, false},
		{"tool call", `{"update":{"sessionUpdate":"tool_call","toolCallId":"c"}}`, true},
		{"tool call in the second sessionUpdate", `{"update":{"sessionUpdate":"plan","sessionUpdate":"tool_call_update"}}`, true},
		{"tool call in the second update", `{"update":{"sessionUpdate":"plan"},"update":{"sessionUpdate":"tool_call"}}`, true},
		{"sessionUpdate not a string", `{"update":{"sessionUpdate":7}}`, true},
		{"update not an object", `{"update":[1]}`, true},
		{"params not an object", `[]`, true},
		{"no update", `{"sessionId":"s"}`, false},
		{"case variant", `{"update":{"SessionUpdate":"tool_call"}}`, false},
	}
	for _, tt := range tests {
		if got := mayBeToolCall([]byte(tt.params)); got != tt.want {
			t.Errorf("%s: mayBeToolCall(%s) = %v, want %v", tt.name, tt.params, got, tt.want)
		}
	}
}
