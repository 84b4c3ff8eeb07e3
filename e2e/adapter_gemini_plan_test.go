package e2e

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// geminiPlanPolicy allows every call, and names touch in an allow rule of
// its own, which the admin policy writes as an ask for the bridge to
// answer.
var geminiPlanPolicy = governanceDoc("e2e-gemini-plan", "e2e Gemini plan", "Every call is allowed; touch by a rule of its own.", "  default: allow\n  allow:\n    - Bash(touch:*)\n")

// TestAdapterGeminiPlanModeAsksThePerson: in Gemini CLI's plan mode
// (read-only tools only until the person approves the plan) a command an
// allow rule names is asked about, since the admin policy has Gemini ask
// the bridge above plan mode's own refusal; the bridge approved it itself
// and the command ran in plan mode, the person never asked. In plan mode
// the question goes to the person, who refuses it here. A command no rule
// names is refused by Gemini's plan mode itself, asking no one.
func TestAdapterGeminiPlanModeAsksThePerson(t *testing.T) {
	s := needSuite(t)
	a := &geminiAgent
	for _, c := range []struct {
		name, cmd, file string
		asked           int
	}{
		{"allow rule", "touch planned.txt", "planned.txt", 1},
		{"default allow", "mkdir planned-dir", "planned-dir", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			r, _ := governedRun(t, s, a, w, geminiPlanPolicy, runOptions{
				name:   "gemini-plan",
				script: fakemodel.Script{Steps: []fakemodel.Step{a.shell(c.cmd), fakemodel.Text("Done.")}},
				client: clientScript{Permission: "reject", Mode: "plan", Prompts: textPrompts("Plan it.")},
			})
			sum := r.wait()
			r.noLeftovers()
			if !modeTaken(t, r) {
				t.Fatalf("Gemini did not take plan mode\n%s", r.stderrTail())
			}
			if _, err := os.Stat(w.path(c.file)); err == nil {
				t.Errorf("BYPASS: %q ran in plan mode (the client was asked %d times)", c.cmd, sum.Permissions)
			}
			if sum.Permissions != c.asked {
				t.Errorf("the client was asked %d times, want %d", sum.Permissions, c.asked)
			}
		})
	}
}
