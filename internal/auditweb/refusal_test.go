package auditweb

import (
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// TestRefusalShownAndCounted runs the real demo with the person refusing
// the write the agent asks for, and checks that the sessions page counts
// the refusal and the session page says who refused the call.
func TestRefusalShownAndCounted(t *testing.T) {
	bin := demoBridge(t)
	ws := filepath.Join(t.TempDir(), "ws")
	if out, err := exec.Command(bin, "demo", "--workspace", ws, "--answer", "reject").CombinedOutput(); err != nil {
		t.Fatalf("acp-bridge demo: %v\n%s", err, out)
	}
	ts := newTestServer(t, filepath.Join(ws, ".acp-bridge", "audit.jsonl"))
	_, body := ts.get(t, "/")
	for _, want := range []string{`<th class="num">refused by a person</th>`, `<td class="num refused">1</td>`} {
		if !strings.Contains(body, want) {
			t.Errorf("sessions page lacks %q:\n%s", want, body)
		}
	}
	g := ts.logs[0].groups[0]
	_, body = ts.get(t, "/timeline?"+url.Values{"run": {g.run}, "session": {g.session}}.Encode())
	for _, want := range []string{`<span class="refused">1 refused by a person</span>`, `<p class="approval">refused by a person: user:ide</p>`} {
		if !strings.Contains(body, want) {
			t.Errorf("session page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "approved by user:ide") {
		t.Errorf("session page says the refused call was approved:\n%s", body)
	}
}

// TestBridgeQuestionApprovalCounted writes, with the real audit writer, a
// question of the bridge's own about a file write that the person
// approved and one they refused (output.approved, no tool call of the
// agent's): the session page counts one approval and one refusal and its
// cards say who answered each.
func TestBridgeQuestionApprovalCounted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	user := audit.Actor{ID: "user:ide", Role: "approver"}
	ask := &audit.Policy{Ref: "rules-ask-1", Decision: audit.DecisionRequireApproval}
	audittest.Append(t, path, audit.Options{},
		audit.Event{Actor: user, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: "s1"}, Input: "write the notes", Metadata: map[string]any{"session": "s1"}},
		audit.Event{Actor: user, Action: "approval.recorded", Subject: audit.Subject{Kind: "file", Path: "/w/todo.txt"}, Policy: ask,
			Output: map[string]any{"approved": true, "approver": "user:ide"}, Metadata: map[string]any{"session": "s1", "stage": "fs.write"}},
		audit.Event{Actor: user, Action: "approval.recorded", Subject: audit.Subject{Kind: "file", Path: "/w/notes.txt"}, Policy: ask,
			Output: map[string]any{"approved": false, "approver": "user:ide"}, Metadata: map[string]any{"session": "s1", "stage": "fs.write"}})
	ts := newTestServer(t, path)
	g := ts.logs[0].groups[0]
	_, body := ts.get(t, "/timeline?"+url.Values{"run": {g.run}, "session": {g.session}}.Encode())
	for _, want := range []string{`1 approved by a person`, `<span class="refused">1 refused by a person</span>`,
		`<p class="approval">approved by user:ide</p>`, `<p class="approval">refused by a person: user:ide</p>`} {
		if !strings.Contains(body, want) {
			t.Errorf("session page lacks %q:\n%s", want, body)
		}
	}
}
