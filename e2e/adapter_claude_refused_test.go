package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestAdapterClaudeRefusedCommandIsNoViolation: a command the policy wants
// approved reaches the person, who refuses it; Claude reports the call
// failed and nothing runs. The audit log says so (tool.refused, naming the
// approval record that refused it) and records no policy.violation ("the
// tool ran without the approval the policy requires" would be false).
func TestAdapterClaudeRefusedCommandIsNoViolation(t *testing.T) {
	w, auditFile := claudeAskedMkdir(t, "claude-refused", "refused-dir", "reject", "Not made.")
	if _, err := os.Stat(w.path("refused-dir")); err == nil {
		t.Fatalf("the refused command ran")
	}
	type rec struct {
		Seq      int64  `json:"seq"`
		Action   string `json:"action"`
		Metadata struct {
			Approved *bool           `json:"approved"`
			Refusal  json.RawMessage `json:"refusal"`
			ToolCall struct {
				ToolCallID string `json:"toolCallId"`
			} `json:"toolCall"`
		} `json:"metadata"`
	}
	refusals, refused := map[int64]bool{}, 0
	for _, x := range readJSONL[rec](t, auditFile) {
		switch x.Action {
		case "policy.violation":
			t.Errorf("the audit log records a violation for a call the person refused and that did not run: seq %d", x.Seq)
		case "approval.recorded":
			if x.Metadata.Approved != nil && !*x.Metadata.Approved {
				refusals[x.Seq] = true
			}
		case "tool.refused":
			refused++
			var ref struct {
				Seq *int64 `json:"seq"`
			}
			if json.Unmarshal(x.Metadata.Refusal, &ref) != nil || ref.Seq == nil || !refusals[*ref.Seq] {
				t.Errorf("tool.refused at seq %d names no earlier refusal: %s", x.Seq, x.Metadata.Refusal)
			}
		}
	}
	if refused != 1 {
		audit, _ := os.ReadFile(auditFile)
		t.Errorf("%d tool.refused records, want 1\n%s", refused, strings.TrimSpace(string(audit)))
	}
}
