package adapter

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestPolicyDeciderAllowKeepsTheMode: a call the policy allows is answered
// "allow", which makes Claude Code skip its own permission handling, only
// in a mode that restricts no more than the policy. In plan mode (no edits
// until the person approves the plan), dontAsk, or a mode the bridge does
// not know, either in the payload or on the wire, the hook has no opinion
// and Claude's mode applies; deny and ask stay as they are.
func TestPolicyDeciderAllowKeepsTheMode(t *testing.T) {
	e, dir := loadTestEngine(t)
	write := fmt.Sprintf(`{"file_path":%q,"content":"x"}`, filepath.Join(dir, "notes.md"))
	const touch = `{"command":"touch made.txt"}`
	rows := []struct {
		name, tool, input, payload, wire string
		want                             Verdict
	}{
		{"default keeps allow", "Write", write, "default", noMode, Allow},
		{"acceptEdits keeps allow", "Write", write, "acceptEdits", "acceptEdits", Allow},
		{"auto keeps allow", "Bash", touch, "auto", noMode, Allow},
		{"bypassPermissions keeps allow", "Bash", touch, "bypassPermissions", noMode, Allow},
		{"no mode known keeps allow", "Write", write, noMode, noMode, Allow},
		{"plan leaves a write to Claude", "Write", write, "plan", noMode, NoOpinion},
		{"plan leaves a command to Claude", "Bash", touch, "plan", "plan", NoOpinion},
		{"the wire's plan is stricter than the payload's default", "Write", write, "default", "plan", NoOpinion},
		{"the payload's plan is stricter than the wire's default", "Write", write, "plan", "default", NoOpinion},
		{"dontAsk leaves it to Claude's own rules", "Write", write, "dontAsk", noMode, NoOpinion},
		{"an unknown mode may restrict more", "Write", write, "readOnly", noMode, NoOpinion},
		{"an unreadable wire mode may restrict more", "Write", write, noMode, "(unreadable)", NoOpinion},
		{"plan keeps a deny", "Bash", deniedRm, "plan", noMode, Deny},
		{"plan keeps an ask", "Bash", askedPush, "plan", noMode, Ask},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, _ := decideInMode(t, e, dir, r.tool, r.input, r.payload, r.wire, r.want)
			if r.want != NoOpinion {
				return
			}
			// The record keeps the policy's allow and says why Claude
			// decides; Claude hears nothing from the hook.
			if got.PolicyDecision != "allow" || !strings.Contains(got.Reason, "left to Claude's") {
				t.Errorf("policy decision %q, reason %q: want allow, left to Claude's mode", got.PolicyDecision, got.Reason)
			}
			if out := ClaudeHookOutput(HookResponse{Decision: got.Verdict, Reason: got.Reason}); out != nil {
				t.Errorf("hook output %s, want none", out)
			}
		})
	}
}
