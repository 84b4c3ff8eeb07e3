package governance

import (
	"strings"
	"testing"
)

// TestProtocolVersionTheBridgeReads holds the IDE and the agent to ACP
// protocol version 1: an IDE's request for a later version asks the agent
// for 1, and an answer naming any other version reaches the IDE as an
// error in the agent's place, recorded as refused. Under version 2 the IDE
// shows a permission request by a title of its own and drops its toolCall,
// the member the bridge judges and retitles.
func TestProtocolVersionTheBridgeReads(t *testing.T) {
	for _, c := range []struct {
		name    string
		asked   string  // the IDE's protocolVersion
		askedAs float64 // what the agent is asked for
		answer  string  // the agent's protocolVersion
		refused bool
	}{
		{"one", `1`, 1, `1`, false},
		{"one spelled as a float", `1`, 1, `1.0`, false},
		{"two asks for one", `2`, 1, `1`, false},
		{"a far later version asks for one", `65535`, 1, `1`, false},
		{"two answered two", `2`, 1, `2`, true},
		{"one answered two", `1`, 1, `2`, true},
		{"zero answered", `1`, 1, `0`, true},
		{"a string answered", `1`, 1, `"1"`, true},
		{"null answered", `1`, 1, `null`, true},
		{"an earlier version is left to the agent", `0`, 0, `1`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarnessWith(t, EnforceOptions{}, true)
			h.ide(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%s,"clientCapabilities":{}}}`, c.asked)
			m := h.nextAtAgent()
			if got := get(m, "params", "protocolVersion"); got != c.askedAs {
				t.Errorf("the agent was asked for version %v, want %v", got, c.askedAs)
			}
			h.agent(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":%s,"agentCapabilities":{},"authMethods":[]}}`, c.answer)
			m = h.nextAtIDE()
			msg, _ := get(m, "error", "message").(string)
			if refused := strings.Contains(msg, "protocol version"); refused != c.refused {
				t.Errorf("IDE got %v, want refused %v", m, c.refused)
			}
			if n := len(h.rec.find("message.refused", "deny")); n != map[bool]int{true: 1}[c.refused] {
				t.Errorf("%d message.refused records, want refused %v", n, c.refused)
			}
		})
	}
}
