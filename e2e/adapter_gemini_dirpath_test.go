package e2e

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// geminiDirPathPolicy allows touch, and edits but in secrets/.
var geminiDirPathPolicy = governanceDoc("e2e-gemini-dir-path", "e2e Gemini dir_path", "The policy the Gemini dir_path scenarios run under.", "  default: ask\n  allow:\n    - Bash(touch:*)\n    - Edit(./**)\n  deny:\n    - Edit(./secrets/**)\n")

// TestAdapterGeminiShellDirPath: Gemini CLI runs a run_shell_command in
// its dir_path, and its permission request shows the command as the title
// and the directory only in its text, so the bridge, which approves an
// allowed call itself, would judge `touch pwn.txt` in the workspace's root
// while it writes secrets/pwn.txt, which the policy denies. The command
// must not run there; without a dir_path (the control) it runs.
func TestAdapterGeminiShellDirPath(t *testing.T) {
	testGeminiShellDirPath(t, "gemini-dir-path-", nil)
}

// testGeminiShellDirPath has the Gemini CLI suite's agent, started with
// the bridge's bridgeArgs added, ask to touch pwn.txt with a dir_path of
// secrets (denied: the file must not be made) and without one (the
// control: it must be), each run named prefix and its case.
func testGeminiShellDirPath(t *testing.T, prefix string, bridgeArgs []string) {
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
				name:       prefix + c.name,
				bridgeArgs: bridgeArgs,
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
