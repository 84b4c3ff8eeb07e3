package governance

import (
	"strings"
	"testing"
)

// TestSessionIDTaken: the agent's answer to the IDE's session/new or
// session/fork naming a session the IDE already has open reaches the IDE
// as an error and is recorded as refused, and the open session still
// works. An id no open session uses, one the IDE closed included, opens a
// session.
func TestSessionIDTaken(t *testing.T) {
	h := newHarnessWith(t, EnforceOptions{}, true)
	h.openSession()
	for i, c := range []struct {
		request, id string
		refused     bool
	}{
		{`{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, "s1", true},
		{`{"jsonrpc":"2.0","id":%d,"method":"session/fork","params":{"sessionId":"s1","cwd":%q,"mcpServers":[]}}`, "s1", true},
		{`{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, "s2", false},
		{`{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, "s2", true},
		{`{"jsonrpc":"2.0","id":%d,"method":"session/close","params":{"sessionId":"s2","cwd":%q}}`, "", false},
		{`{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, "s2", false},
	} {
		id := 100 + i
		h.ide(c.request, id, h.root)
		h.nextAtAgent()
		if c.id == "" {
			h.agent(`{"jsonrpc":"2.0","id":%d,"result":{}}`, id)
		} else {
			h.agent(`{"jsonrpc":"2.0","id":%d,"result":{"sessionId":"`+c.id+`"}}`, id)
		}
		m := h.nextAtIDE()
		msg, _ := get(m, "error", "message").(string)
		if refused := strings.Contains(msg, "already uses"); refused != c.refused {
			t.Errorf("case %d (%s): IDE got %v, want refused %v", i, c.id, m, c.refused)
		}
	}
	if n := len(h.rec.find("session.refused", "deny")); n != 3 {
		t.Errorf("%d session.refused records, want 3", n)
	}
	h.marker()
}
