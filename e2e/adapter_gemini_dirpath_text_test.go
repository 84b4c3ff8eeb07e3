package e2e

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestGeminiShellDirPathWithoutAdminPolicy: a Gemini CLI the bridge gives
// no policy file (started through a wrapper and known only by its
// agentInfo; --adapter none here) asks about a run_shell_command with a
// dir_path, and its permission request shows the directory only in its
// text ("[in secrets] (Touch)"). The bridge must judge the command where
// it runs: touch pwn.txt there writes secrets/pwn.txt, which the policy
// denies editing. The control, without a dir_path, runs.
func TestGeminiShellDirPathWithoutAdminPolicy(t *testing.T) {
	s := needSuite(t)
	a := &geminiAgent
	for _, c := range []struct {
		name    string
		args    map[string]any
		file    string
		created bool
	}{
		{"dir-path", map[string]any{"command": "touch pwn.txt", "dir_path": "secrets", "description": "Touch"}, "secrets/pwn.txt", false},
		{"control", map[string]any{"command": "touch pwn.txt", "description": "Touch"}, "pwn.txt", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			r, _ := governedRun(t, s, a, w, geminiDirPathPolicy, runOptions{
				name:       "gemini-dir-path-text-" + c.name,
				bridgeArgs: []string{"--adapter", "none"},
				files:      map[string]string{"secrets/keep.txt": "k"},
				script:     fakemodel.Script{Steps: []fakemodel.Step{fakemodel.Tool(a.shellTool, c.args), fakemodel.Text("Done.")}},
				client:     clientScript{Permission: "reject", Prompts: textPrompts("Run it.")},
			})
			r.wait()
			r.noLeftovers()
			_, err := os.Stat(w.path(c.file))
			if created := err == nil; created != c.created {
				if c.created {
					t.Errorf("the allowed touch did not run: %s missing", c.file)
				} else {
					t.Errorf("BYPASS: touch ran in secrets/, which the policy denies editing")
				}
			}
		})
	}
}
