package governance

import "testing"

// TestNamedSessionCaseVariants: a method outside the session-scoped ones
// (an extension, one ACP adds later) is not read strictly by the wire, and
// a Go client decoding its params reads a member whose name differs from
// sessionId only in case (Unicode folding, the last match winning) as the
// session. Each such member must name a session the IDE opened.
func TestNamedSessionCaseVariants(t *testing.T) {
	h := newHarnessWith(t, EnforceOptions{}, false)
	h.openSession()
	refused := []string{
		`{"jsonrpc":"2.0","id":%d,"method":"_zed/open","params":{"sessionId":"s1","SessionId":"evil"}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"session/whatever","params":{"sessionId":"s1","sessionid":"evil"}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"_x/ping","params":{"sessionId":"s1","\u0053ESSIONID":"evil"}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"_x/ping","params":{"sessionId":"s1","ſessionId":"evil"}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"_x/ping","params":{"SessionID":"evil"}}`,
	}
	for i, line := range refused {
		h.agent(line, 20+i)
		m := h.nextAtAgent()
		if code, _ := get(m, "error", "code").(float64); code != -32600 {
			t.Errorf("agent got %v for %s, want a -32600 error", m, line)
		}
	}
	h.marker()
	if n := len(h.rec.find("message.refused", "deny")); n != len(refused) {
		t.Errorf("%d message.refused records, want %d", n, len(refused))
	}
	// Case variants naming the open session pass.
	h.agent(`{"jsonrpc":"2.0","method":"_acme/notice","params":{"sessionId":"s1","SessionId":"s1"}}`)
	if m := h.nextAtIDE(); m["method"] != "_acme/notice" {
		t.Fatalf("IDE got %v, want the notice for the open session", m)
	}
}
