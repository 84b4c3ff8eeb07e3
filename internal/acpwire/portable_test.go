package acpwire_test

import (
	"strings"
	"testing"
)

// TestUnportableRefused: a judged message some IDE's reader drops whole
// (Zed's serde_json past 128 nested containers or on a number past a
// double's range) while others read it is refused, never forwarded, and
// a request is answered: an update Zed never took in would otherwise
// change the call the bridge judges a later permission request by. Within
// the limits, and in a message the bridge does not judge, such a line
// passes byte for byte.
func TestUnportableRefused(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	// The message, params, update and _meta are four containers.
	update := func(meta string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","title":"rm -rf x","kind":"execute","_meta":{"x":` + meta + `}}}}`
	}
	tests := []struct {
		name, line string
		// answer is a substring of the error the agent receives, "" for
		// none; reason one of the refusal's reason, "" when the line
		// passes.
		answer, reason string
	}{
		{"update 101 deep", update(nest(97)), "", "nested more than 100"},
		{"update with 1e400", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","title":"rm -rf x","kind":"execute","progress":1e400}}}`, "", "past a double's range"},
		{"permission request 101 deep", `{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t","rawInput":{"command":"ls","x":` + nest(97) + `}},"options":[]}}`, `"id":3,"error":{"code":-32600`, "nested more than 100"},
		{"terminal with -1e400", `{"jsonrpc":"2.0","id":4,"method":"terminal/create","params":{"sessionId":"s","command":"ls","outputByteLimit":-1e400}}`, `"id":4,"error":{"code":-32600`, "past a double's range"},
		{"update 100 deep", update(nest(96)), "", ""},
		{"update with 1e308", update("1e308"), "", ""},
		// A text chunk is checked only down to its content block (see
		// docs/wire.md, Limits).
		{"text chunk 101 deep", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"},"_meta":{"x":` + nest(97) + `}}}}`, "", ""},
		{"unjudged method with 1e400", `{"jsonrpc":"2.0","method":"_x/y","params":{"n":1e400}}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, r := sendBeforeMarker(t, tt.line)
			if tt.reason == "" {
				if got := h.ClientGets(); got != tt.line {
					t.Fatalf("client got %.200s, want the line as sent", got)
				}
				if got := h.ClientGets(); got != refusalMarker {
					t.Fatalf("client got %.200s after the line", got)
				}
				return
			}
			checkRefused(t, h, r, refusalMarker, tt.answer, tt.reason)
		})
	}
}
