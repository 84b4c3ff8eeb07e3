package e2e

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// geminiOwnFiles is one turn of Gemini CLI reading and writing files
// itself (the client offers no fs) with the person approving every
// request: the model makes one tool call, step, then ends.
type geminiOwnFiles struct {
	name, mode, prompt string
	files              map[string]string
	step               fakemodel.Step
}

// run runs the turn under policy in w and waits for it to end with no
// process left; where mode is set, Gemini must have taken it.
func (g geminiOwnFiles) run(t *testing.T, s *suiteEnv, w *workspace, policy string) *run {
	t.Helper()
	noFS := false
	r, _ := governedRun(t, s, &geminiAgent, w, policy, runOptions{
		name:   g.name,
		files:  g.files,
		script: fakemodel.Script{Steps: []fakemodel.Step{g.step, fakemodel.Text("Done.")}},
		client: clientScript{FS: &noFS, Permission: "allow", Mode: g.mode, Prompts: textPrompts(g.prompt)},
	})
	r.wait()
	r.noLeftovers()
	if g.mode != "" && !modeTaken(t, r) {
		t.Fatalf("Gemini did not take mode %s\n%s", g.mode, r.stderrTail())
	}
	return r
}
