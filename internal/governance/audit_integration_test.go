package governance

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// TestEnforceWithRealAuditLog runs the enforcement scenarios against the
// real audit log: every record must be accepted (none dropped as invalid),
// the chain must verify, and the records of each decision must be there.
func TestEnforceWithRealAuditLog(t *testing.T) {
	file := filepath.Join(t.TempDir(), "audit.jsonl")
	var logs bytes.Buffer
	l, err := audit.Open(file, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := sessionHarness(t, EnforceOptions{Audit: l, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"read the env, key sk-abcdefghijklmnopqrstuvwxyz0123456789"}]}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":%q}}`, h.root+"/.env")
	h.nextAtAgent()
	h.nextAtIDE()
	h.agent("%s", permissionRequest(8, "c1", "execute", `{"command":"git commit -m x"}`))
	h.approve(8)
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":{"output":"[main 1a2b3c] x"}}}}`)
	h.nextAtIDE()
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t9","title":"curl","kind":"execute","status":"pending","rawInput":{"command":"curl https://x"}}}}`)
	h.nextAtAgent()
	h.nextAtIDE()
	h.agent(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"cancelled"}}`)
	h.nextAtIDE()
	h.marker()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "invalid audit event") || strings.Contains(logs.String(), "audit append failed") {
		t.Fatalf("records were refused:\n%s", logs.String())
	}
	entries := audittest.VerifiedEntries(t, file)
	count := map[string]int{}
	for _, e := range entries {
		key := e.Action
		if e.Policy != nil {
			key += ":" + e.Policy.Decision
		}
		count[key]++
	}
	for _, want := range []string{"session.new:allow", "session.start", "session.prompt", "fs.read:deny",
		"tool.call:require-approval", "approval.recorded:require-approval", "policy.violation:deny", "operator.lifecycle"} {
		if count[want] == 0 {
			t.Errorf("no %s record; have %v", want, count)
		}
	}
	raw, _ := readAll(file)
	if strings.Contains(raw, "sk-abcdefghijklmnopqrstuvwxyz0123456789") {
		t.Error("the API key in the prompt reached the audit file")
	}
	t.Logf("%d records verified", len(entries))
	if testing.Verbose() {
		t.Log(raw)
	}
}

func readAll(file string) (string, error) {
	b, err := os.ReadFile(file)
	return string(b), err
}
