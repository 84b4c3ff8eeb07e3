package auditweb

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// TestCommandNewlineShown: a terminal's command holding a newline is two
// commands; the session page's records showed it folded into one line,
// "echo ok rm -rf ~", one echo. The newline is shown as \n.
func TestCommandNewlineShown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	audittest.Append(t, path, audit.Options{},
		audit.Event{Actor: audit.Actor{ID: "user:ide", Role: "user"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: "sess-1"},
			Input: "tidy up", Metadata: map[string]any{"session": "sess-1"}},
		audit.Event{Actor: audit.Actor{ID: "agent:x", Role: "operator"}, Action: "terminal.create",
			Subject: audit.Subject{Kind: "terminal", Ref: "echo ok\nrm -rf ~", Path: "/w"},
			Policy:  &audit.Policy{Ref: "allow-echo", Decision: audit.DecisionAllow}, Metadata: map[string]any{"session": "sess-1"}})
	ts := newTestServer(t, path)
	g := ts.logs[0].groups[0]
	_, body := ts.get(t, "/timeline?"+url.Values{"run": {g.run}, "session": {g.session}}.Encode())
	if strings.Contains(body, "echo ok rm -rf ~") || strings.Count(body, `echo ok\nrm -rf ~`) < 2 {
		t.Errorf("the session page does not show the newline in the card and the record:\n%s", body)
	}
}
