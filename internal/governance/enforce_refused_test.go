package governance

import (
	"strings"
	"testing"
)

// TestEnforceWireRefusalTold: a message the wire layer refuses before any
// middleware sees it (a duplicate or case-variant member on a
// session/update reporting a tool call the agent already ran) is recorded
// and the person is told in its session, as for an unreadable message; a
// refusal naming no session the IDE opened is only recorded.
func TestEnforceWireRefusalTold(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	for _, line := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","sessionUpdate":"tool_call","toolCallId":"tc11","title":"rm","kind":"execute","status":"completed","rawInput":{"command":"rm -rf x"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tc7","title":"ls","kind":"execute","status":"completed","rawInput":{"command":"ls","Command":"rm -rf x"}}}}`,
		`{"jsonrpc":"2.0","id":"u1","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tc21","title":"rm","kind":"execute","status":"completed","rawInput":{"command":"rm -rf x"}}}}`,
	} {
		h.rawAgent(line)
		m := h.nextAtIDE()
		text, _ := get(m, "params", "update", "content", "text").(string)
		if get(m, "params", "sessionId") != "s1" || !strings.Contains(text, "acp-bridge refused") {
			t.Fatalf("IDE got %v after %s; want the person told in s1", m, line)
		}
	}
	// Not in a session the IDE opened: recorded, nobody told.
	h.rawAgent(`{"jsonrpc":"2.0","id":null,"method":"session/update","params":{"sessionId":"evil","update":{"sessionUpdate":"tool_call","toolCallId":"tc9","title":"x"}}}`)
	h.marker()
	if n := len(h.rec.find("message.refused", "deny")); n < 4 {
		t.Errorf("%d message.refused records, want 4", n)
	}
}
