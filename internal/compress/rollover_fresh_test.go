package compress

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// rolloverAnswered sends the IDE's prompt id in s1, which a checkpoint
// made due to roll over, answers the rollover's session/new with
// sessionId fresh, and returns what the agent gets next.
func rolloverAnswered(h *harness, id int, fresh string) []byte {
	h.t.Helper()
	_, rid := h.rolloverAsked(id, "s1", "go on")
	h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":%q}}`, rid, fresh))
	return h.readAgent()
}

// TestRolloverNeedsAFreshSession: the agent answers the session/new a
// rollover of s1 sends with the id of a session the bridge already knows:
// s2, which the IDE opened as well; s1 itself; or d1, the agent session s1
// already continues in. Mapped as s1's continuation, s2's messages would
// reach the IDE (and governance, nearer it) as s1's. The rollover fails
// instead: the person is told, the prompt goes on in s1's current agent
// session, and each session's messages keep their own id.
func TestRolloverNeedsAFreshSession(t *testing.T) {
	cases := []struct {
		name, taken, current string
		prepare              func(h *harness) int // returns the next prompt id
	}{
		{"another open session", "s2", "s1", func(h *harness) int { return 4 }},
		{"the session itself", "s1", "s1", func(h *harness) int { return 4 }},
		{"its current agent session", "d1", "d1", func(h *harness) int {
			if pr := rolloverAnswered(h, 4, "d1"); str(pr, "params", "sessionId") != "d1" {
				h.t.Fatalf("first rollover: agent got %s, want the prompt in d1", pr)
			}
			h.checkpoint(4, "d1", "Working on the exporter again. ")
			return 6
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, _ := checkpointedHarness(t)
			h.newSession(10, "/other", "s2")
			pr := rolloverAnswered(h, c.prepare(h), c.taken)
			if str(pr, "method") != "session/prompt" || str(pr, "params", "sessionId") != c.current || str(pr, "params", "prompt", "0", "text") != "go on" {
				t.Fatalf("agent got %s, want the person's prompt in %s, unchanged", pr, c.current)
			}
			got := h.untilIDE(func(m []byte) bool {
				return strings.Contains(notes([][]byte{m}), "could not open a fresh agent session")
			})
			if n := notes(got); !strings.Contains(n, "not a fresh one") {
				t.Errorf("note %q does not say why", n)
			}
			h.agent(agentSays("s2", "working in s2"))
			if m := h.readIDE(); str(m, "params", "sessionId") != "s2" {
				t.Errorf("s2's message reached the IDE in session %s", str(m, "params", "sessionId"))
			}
		})
	}
}

// TestSessionOpenedUnderATakenID: the agent answers the IDE's session/new
// with the id of a session the bridge already has: s1, open; or d1, the
// agent session s1 continues in since a rollover. Kept, the new session
// would share it with s1 (and its messages reach the IDE as s1's, or a
// later rollover of s1 take the new one's cwd). The IDE gets an error
// instead, and s1's messages keep reaching it as s1's.
func TestSessionOpenedUnderATakenID(t *testing.T) {
	cases := []struct {
		name, taken string
		harness     func(t *testing.T) *harness
	}{
		{"an open session", "s1", func(t *testing.T) *harness { return sessionHarness(t, Config{}) }},
		{"the agent session a rollover opened", "d1", func(t *testing.T) *harness {
			h, _ := checkpointedHarness(t)
			if pr := rolloverAnswered(h, 4, "d1"); str(pr, "params", "sessionId") != "d1" {
				t.Fatalf("rollover: agent got %s, want the prompt in d1", pr)
			}
			return h
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := c.harness(t)
			h.ide(`{"jsonrpc":"2.0","id":10,"method":"session/new","params":{"cwd":"/other","mcpServers":[]}}`)
			if req := h.readAgent(); str(req, "method") != "session/new" {
				t.Fatalf("agent got %s", req)
			}
			h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":10,"result":{"sessionId":%q}}`, c.taken))
			resp := h.untilIDE(isResponse("10"))
			last := resp[len(resp)-1]
			if _, ok := rawjson.Get(last, "error"); !ok || str(last, "result", "sessionId") != "" {
				t.Fatalf("IDE got %s, want an error: the session is not opened", last)
			}
			h.agent(agentSays(c.taken, "still working"))
			if m := h.readIDE(); str(m, "params", "sessionId") != "s1" {
				t.Errorf("the agent's message in %s reached the IDE in session %s, want s1", c.taken, str(m, "params", "sessionId"))
			}
		})
	}
}
