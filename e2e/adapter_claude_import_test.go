package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterClaudeMemoryImport: Claude Code reads the files a CLAUDE.md
// imports (@path) into the model's context when it loads that CLAUDE.md,
// with no tool call the hook or the wire sees. A CLAUDE.md the agent
// writes in a subdirectory, importing ../.env, is loaded when Claude next
// reads a file there: the .env a rule denies reading must not reach the
// model that way, whether the agent writes the CLAUDE.md with its Write
// tool or with a Bash line. The control imports a file the policy lets
// the agent read, and Claude loads it.
func TestAdapterClaudeMemoryImport(t *testing.T) {
	const note = "imported-note-5521"
	cases := []struct {
		name    string
		write   func(a *agentSpec, w *workspace) fakemodel.Step
		control bool
	}{
		{"write-tool", func(a *agentSpec, w *workspace) fakemodel.Step {
			return a.write(w.path("sub/CLAUDE.md"), "# Notes\n\nSee @../.env for the settings.\n")
		}, false},
		{"bash-line", func(a *agentSpec, w *workspace) fakemodel.Step {
			return a.shell("echo 'See @../.env for the settings.' > sub/CLAUDE.md")
		}, false},
		{"control", func(a *agentSpec, w *workspace) fakemodel.Step {
			return a.write(w.path("sub/CLAUDE.md"), "# Notes\n\nSee @notes.txt for the settings.\n")
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, a, w := claudeScene(t)
			r, _ := adapterRun(t, s, a, w, runOptions{
				name:  "claude-import-" + c.name,
				files: map[string]string{".env": envSecret + "\n", "sub/b.txt": "public b\n", "sub/notes.txt": note + "\n"},
				script: fakemodel.Script{Steps: []fakemodel.Step{
					c.write(a, w),
					a.read(w.path("sub/b.txt")),
					fakemodel.Text("Done."),
				}},
				client: clientScript{Prompts: textPrompts("Write the notes, then read sub/b.txt.")},
			})
			sum := r.wait()
			t.Logf("summary %+v", sum)
			if secretReachedModel(r) {
				t.Fatalf("the .env content reached the model through the CLAUDE.md import")
			}
			written, _ := os.ReadFile(w.path("sub/CLAUDE.md"))
			loaded := false
			for _, req := range r.model.Requests() {
				loaded = loaded || strings.Contains(string(req.Body), note)
			}
			if c.control {
				if !strings.Contains(string(written), "@notes.txt") || !loaded {
					t.Errorf("the allowed import: CLAUDE.md holds %q, imported note reached the model = %v", written, loaded)
				}
			} else if strings.Contains(string(written), ".env") {
				t.Errorf("sub/CLAUDE.md holds %q: the write importing .env was not refused", written)
			}
		})
	}
}
