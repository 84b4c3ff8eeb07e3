package e2e

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// touchCase is a shell command that creates file (a path relative to the
// workspace) and whether the policy lets it run.
type touchCase struct {
	name, cmd, file string
	runs            bool
}

// checkGeminiTouch runs c.cmd as Gemini's one shell step in w under policy,
// the test client rejecting every permission request in session mode (the
// agent's default when ""), and fails t if the command ran where the
// policy refuses it or did not run where it allows it. The run's logs are
// named runName; the run, ended, is returned.
func checkGeminiTouch(t *testing.T, s *suiteEnv, w *workspace, policy, runName, mode string, c touchCase) *run {
	t.Helper()
	a := &geminiAgent
	r, _ := governedRun(t, s, a, w, policy, runOptions{
		name:   runName,
		script: fakemodel.Script{Steps: []fakemodel.Step{a.shell(c.cmd), fakemodel.Text("Done.")}},
		client: clientScript{Permission: "reject", Mode: mode, Prompts: textPrompts("Run it.")},
	})
	r.wait()
	how := ""
	if mode != "" {
		how = " in " + mode + " mode"
	}
	_, err := os.Stat(w.path(c.file))
	switch ran := err == nil; {
	case ran && !c.runs:
		t.Errorf("BYPASS: %q ran%s", c.cmd, how)
	case !ran && c.runs:
		t.Errorf("the allowed %q did not run%s\n%s", c.cmd, how, r.stderrTail())
	}
	return r
}
