package governance

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestEnforceUnopenedSessions: the agent reaches the IDE only in sessions
// the IDE opened (session/new, session/load) and has not closed; anything
// else is refused (-32600 for a request, dropped for a notification) and
// recorded as message.refused.
func TestEnforceUnopenedSessions(t *testing.T) {
	h := newHarnessWith(t, EnforceOptions{}, false)
	h.openSession()
	refusedReq := func(id int, line string) {
		t.Helper()
		h.agent(line, id)
		m := h.nextAtAgent()
		if code, _ := get(m, "error", "code").(float64); code != -32600 {
			t.Fatalf("agent got %v for %s, want a -32600 error", m, line)
		}
	}
	refusedReq(10, `{"jsonrpc":"2.0","id":%d,"method":"fs/read_text_file","params":{"sessionId":"evil","path":"/etc/hostname"}}`)
	refusedReq(11, `{"jsonrpc":"2.0","id":%d,"method":"terminal/create","params":{"command":"rm","args":["x"]}}`)
	refusedReq(12, `{"jsonrpc":"2.0","id":%d,"method":"terminal/create","params":{"sessionId":7,"command":"rm","args":["x"]}}`)
	refusedReq(13, `{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"","toolCall":{"toolCallId":"t","title":"ls"},"options":[]}}`)
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"evil","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`)
	// Any other method that names a session is held to it too, every
	// sessionId member of it (the wire does not read these strictly).
	refusedReq(14, `{"jsonrpc":"2.0","id":%d,"method":"elicitation/create","params":{"sessionId":"evil","message":"Re-enter your token"}}`)
	refusedReq(15, `{"jsonrpc":"2.0","id":%d,"method":"_zed/open","params":{"sessionId":"s1","sessionId":"evil"}}`)
	h.agent(`{"jsonrpc":"2.0","method":"_acme/notice","params":{"sessionId":"evil"}}`)
	h.marker()
	if n := len(h.rec.find("message.refused", "deny")); n != 8 {
		t.Errorf("%d message.refused records, want 8", n)
	}
	// A method that names no session, or an open one, passes.
	h.agent(`{"jsonrpc":"2.0","method":"_acme/ping","params":{"n":1}}`)
	if m := h.nextAtIDE(); m["method"] != "_acme/ping" {
		t.Fatalf("IDE got %v, want the extension notification", m)
	}
	h.agent(`{"jsonrpc":"2.0","method":"_acme/notice","params":{"sessionId":"s1"}}`)
	if m := h.nextAtIDE(); m["method"] != "_acme/notice" {
		t.Fatalf("IDE got %v, want the notice for the open session", m)
	}

	// A session the IDE loads is known before the agent replays it.
	h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s9","cwd":%q,"mcpServers":[]}}`, h.root)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s9","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"replay"}}}}`)
	if m := h.nextAtIDE(); get(m, "params", "update", "content", "text") != "replay" {
		t.Fatalf("IDE got %v, want the replayed update", m)
	}

	// A closed session is gone.
	h.ide(`{"jsonrpc":"2.0","id":3,"method":"session/close","params":{"sessionId":"s9"}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s9","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"late"}}}}`)
	h.marker()
}

// TestSessionScopedDuplicatesRefusedByWire: checkOpened reads the first
// sessionId of params, which is sound only because the wire layer refuses
// a repeated name in every message kind checkOpened judges, before
// governance sees it. Each message here names an open session first and
// an unopened one last (the one the IDE would read): the wire refuses it,
// so no session-scope decision is ever made on it.
func TestSessionScopedDuplicatesRefusedByWire(t *testing.T) {
	h := newHarnessWith(t, EnforceOptions{}, false)
	h.openSession()
	sid := `"sessionId":"s1","sessionId":"evil"`
	for method := range sessionScoped {
		for _, notify := range []bool{false, true} {
			id := ""
			if !notify {
				id = `"id":77,`
			}
			var line string
			if method == "session/update" {
				// Also the text chunk form, read by the wire's fast path.
				line = `{"jsonrpc":"2.0",` + id + `"method":"session/update","params":{` + sid + `,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`
			} else {
				line = `{"jsonrpc":"2.0",` + id + `"method":"` + method + `","params":{` + sid + `,"path":"/x","command":"ls","terminalId":"t","toolCall":{"toolCallId":"c"},"options":[]}}`
			}
			h.rawAgent(line)
			if !notify {
				if m := h.nextAtAgent(); get(m, "error", "code") == nil {
					t.Errorf("%s request with a repeated sessionId: agent got %v, want an error", method, m)
				}
			}
			h.marker()
		}
	}
	refused := h.rec.find("message.refused", "")
	if len(refused) != 2*len(sessionScoped) {
		t.Errorf("%d message.refused records, want %d", len(refused), 2*len(sessionScoped))
	}
	for _, r := range refused {
		if r.ev.Policy != nil && r.ev.Policy.Ref == "session-scope" {
			t.Errorf("governance judged a message the wire should have refused: %+v", r.ev)
		}
	}
}

// TestIsSessionScoped holds isSessionScoped to the sessionScoped map.
func TestIsSessionScoped(t *testing.T) {
	methods := []string{"", "session/updat", "session/update ", "Session/update", "session/prompt", "elicitation/create", "_x"}
	for m := range sessionScoped {
		methods = append(methods, m)
	}
	for _, m := range methods {
		if got, want := isSessionScoped(m), sessionScoped[m]; got != want {
			t.Errorf("isSessionScoped(%q) = %v, want %v", m, got, want)
		}
	}
}

// TestLoadAnsweredInTheAgentsPlace: a session/load, resume or fork whose
// answer the bridge refuses is answered with the bridge's error, and the
// IDE reads it as failed: the session it named is not open, and the agent
// reaches the IDE in its name no more than in a session the IDE never
// named, as after an error answer of the agent's own.
func TestLoadAnsweredInTheAgentsPlace(t *testing.T) {
	for _, method := range []string{"session/load", "session/resume"} {
		for name, answer := range map[string]string{
			"refused":   `{"jsonrpc":"2.0","id":2,"result":{},"error":{"code":-32603,"message":"x"}}`,
			"error":     `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"x"}}`,
			"oversized": `{"jsonrpc":"2.0","id":2,"result":{"pad":"` + strings.Repeat("a", 8<<10) + `"}}`,
		} {
			t.Run(method+"/"+name, func(t *testing.T) {
				h := newHarnessWire(t, EnforceOptions{}, false, acpwire.Options{MaxLineSize: 4 << 10})
				h.openSession()
				h.ide(`{"jsonrpc":"2.0","id":2,"method":%q,"params":{"sessionId":"s9","cwd":%q,"mcpServers":[]}}`, method, h.root)
				h.nextAtAgent()
				h.agent("%s", answer)
				if m := h.nextAtIDE(); m["id"] != float64(2) || m["error"] == nil {
					t.Fatalf("IDE got %v, want its %s failed", m, method)
				}
				h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s9","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"late"}}}}`)
				h.marker()
			})
		}
	}
}
