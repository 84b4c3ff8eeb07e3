package e2e

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// cdPolicy denies changes beneath secrets/ and allows the rest.
var cdPolicy = governanceDoc("e2e-claude-cd", "e2e Claude cd", "Changes beneath secrets are denied.",
	"  default: allow\n  deny:\n    - Edit(./secrets/**)\n    - Write(./secrets/**)\n")

// TestAdapterClaudeShellCwdCarried: Claude Code's Bash keeps its working
// directory from one call to the next, so "cd DIR" and then "touch
// pwn.txt" writes DIR/pwn.txt. The hook payload's cwd is that directory,
// and the second call is decided there: beneath secrets/ it is refused,
// beneath src/ (the control) it runs.
func TestAdapterClaudeShellCwdCarried(t *testing.T) {
	s := needSuite(t)
	a := &claudeAgent
	for _, c := range []struct {
		dir     string
		written bool
	}{{"secrets", false}, {"src", true}} {
		t.Run(c.dir, func(t *testing.T) {
			w := newWorkspace(t)
			r, _ := governedRun(t, s, a, w, cdPolicy, runOptions{
				name:   "claude-cd-" + c.dir,
				files:  map[string]string{"README.md": "hello\n", "secrets/keep.txt": "k\n", "src/keep.txt": "k\n"},
				script: fakemodel.Script{Steps: []fakemodel.Step{a.shell("cd " + c.dir), a.shell("touch pwn.txt"), fakemodel.Text("Done.")}},
				client: clientScript{Permission: "allow", Prompts: textPrompts("Go.")},
			})
			r.wait()
			_, err := os.Stat(w.path(c.dir + "/pwn.txt"))
			switch written := err == nil; {
			case written && !c.written:
				t.Errorf("BYPASS: the agent wrote %s/pwn.txt", c.dir)
			case !written && c.written:
				t.Errorf("the control %s/pwn.txt was not written: the scenario does not write\n%s", c.dir, r.stderrTail())
			}
		})
	}
}
