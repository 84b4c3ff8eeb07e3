package governance

import (
	"context"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// TestAnsweredByMiddlewareNearerTheAgent: a middleware past the enforcer
// (context compression refusing a load of the agent session a rollover
// opened, answering a quick command) answers the IDE's request in the
// agent's place. That answer never passes the enforcer, which hears of it
// through Answered (acpwire.Options.OnAnswered), as cmd/acp-bridge wires
// it: a load the IDE reads as failed leaves its session unopened, so the
// agent's messages naming it are refused, and a prompt answered in place
// ends its turn.
func TestAnsweredByMiddlewareNearerTheAgent(t *testing.T) {
	for _, tt := range []struct {
		name, request, answer string
		// open: the agent's update naming s9 reaches the IDE afterwards.
		open bool
	}{
		{"load refused", `{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s9","cwd":%q,"mcpServers":[]}}`, "error", false},
		{"resume refused", `{"jsonrpc":"2.0","id":2,"method":"session/resume","params":{"sessionId":"s9","cwd":%q,"mcpServers":[]}}`, "error", false},
		{"load answered", `{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s9","cwd":%q,"mcpServers":[]}}`, "result", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarnessAnswering(t, func(s acpwire.Sender, m *acpwire.Message) error {
				if tt.answer == "error" {
					return s.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams, "not here"))
				}
				return s.Reply(m, map[string]any{})
			})
			h.openSession()
			h.ide(tt.request, h.root)
			if m := h.nextAtIDE(); m["id"] != float64(2) || (m["error"] != nil) != (tt.answer == "error") {
				t.Fatalf("IDE got %v, want the middleware's %s", m, tt.answer)
			}
			h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s9","update":{"sessionUpdate":"plan","entries":[]}}}`)
			if tt.open {
				if m := h.nextAtIDE(); get(m, "params", "sessionId") != "s9" {
					t.Fatalf("IDE got %v, want the update in the session it loaded", m)
				}
			}
			h.marker()
		})
	}
	t.Run("prompt answered", func(t *testing.T) {
		h := newHarnessAnswering(t, func(s acpwire.Sender, m *acpwire.Message) error {
			return s.Reply(m, map[string]any{"stopReason": "end_turn"})
		})
		h.openSession()
		h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"/bridge-context"}]}}`)
		if m := h.nextAtIDE(); get(m, "result", "stopReason") != "end_turn" {
			t.Fatalf("IDE got %v, want the middleware's answer", m)
		}
		h.enf.mu.Lock()
		n := len(h.enf.prompts)
		h.enf.mu.Unlock()
		if n != 0 {
			t.Errorf("%d turns still running after the prompt was answered in the agent's place", n)
		}
	})
}

// newHarnessAnswering builds a harness as newHarness does, with a
// middleware past the enforcer that answers every IDE request but
// session/new with answer, and the bridge's OnAnswered given to the
// enforcer.
func newHarnessAnswering(t *testing.T, answer func(acpwire.Sender, *acpwire.Message) error) *harness {
	t.Helper()
	e, root := testEngine(t)
	h := &harness{t: t, root: root, rec: &fakeRecorder{}}
	b := acpwire.New(acpwire.Options{
		OnRefused:  func(r acpwire.Refusal) { h.enf.Refused(r) },
		OnAnswered: func(req *acpwire.Message, resp []byte) { h.enf.Answered(req, resp) },
	})
	h.enf = NewEnforcer(EnforceOptions{Engine: e, Audit: h.rec, Sender: b})
	b.UseFailClosedNonRetaining(h.enf)
	b.Use(acpwire.Middleware(func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			if m.Kind == acpwire.KindRequest && m.Dir == acpwire.ClientToAgent && m.Method != "session/new" && m.Method != "initialize" {
				return answer(b, m)
			}
			return next.Handle(ctx, m)
		})
	}))
	h.Harness = acpwiretest.Start(t, b)
	return h
}
