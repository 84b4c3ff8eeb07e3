package compress

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// TestIDERequestNamingARolloverSession: after s1 rolled over into the
// agent session d1, the IDE names d1 itself (found in the agent's
// session/list): a load, a resume or a prompt. Passed on, the agent's
// messages in d1 would reach the IDE (and governance) as s1's, and the
// person's prompts in both would share one agent session. The IDE gets an
// error, and the agent nothing.
func TestIDERequestNamingARolloverSession(t *testing.T) {
	for _, method := range []string{"session/load", "session/resume", "session/prompt"} {
		t.Run(method, func(t *testing.T) {
			h, _ := checkpointedHarness(t)
			if pr := rolloverAnswered(h, 4, "d1"); str(pr, "params", "sessionId") != "d1" {
				t.Fatalf("rollover: agent got %s, want the prompt in d1", pr)
			}
			params := `{"sessionId":"d1","cwd":"/other","mcpServers":[]}`
			if method == "session/prompt" {
				params = `{"sessionId":"d1","prompt":[{"type":"text","text":"hi"}]}`
			}
			h.ide(fmt.Sprintf(`{"jsonrpc":"2.0","id":20,"method":%q,"params":%s}`, method, params))
			resp := h.untilIDE(isResponse("20"))
			last := resp[len(resp)-1]
			if e, ok := rawjson.Get(last, "error"); !ok || !strings.Contains(string(e), "continues session") {
				t.Fatalf("IDE got %s, want an error naming s1", last)
			}
			// The next thing the agent gets is the IDE's next message.
			h.ide(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
			if m := h.readAgent(); str(m, "method") != "session/cancel" {
				t.Errorf("the agent got %s, want only the cancel after the refused request", m)
			}
		})
	}
}

// TestUnreadUpdateKeepsTheIDESession: after s1 rolled over into the agent
// session d1, an update of the agent's in d1 that the pipeline does not
// reads (no update object) still reaches the
// middleware past it as s1's: left naming d1, it would be judged, and
// reach the IDE, in the name of a session the IDE never opened.
func TestUnreadUpdateKeepsTheIDESession(t *testing.T) {
	for name, update := range map[string]string{
		"null update": `null`,
		"no object":   `"plan"`,
		"array":       `[]`,
	} {
		t.Run(name, func(t *testing.T) {
			h, _ := checkpointedHarness(t)
			rolloverAnswered(h, 4, "d1")
			h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"d1","update":` + update + `}}`)
			got := h.untilIDE(func(m []byte) bool { return strings.Contains(string(m), `"update":`+update) })
			if sid := str(got[len(got)-1], "params", "sessionId"); sid != "s1" {
				t.Errorf("IDE got %s, want it in s1", got[len(got)-1])
			}
		})
	}
}
