package e2e

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// geminiNextSession runs a second bridged Gemini session in w, whose
// workspace holds the .env and the GEMINI.md the first session left, and
// reports whether the secret reached the model: Gemini loads GEMINI.md,
// and the files its '@' imports name, into its first request.
func geminiNextSession(t *testing.T, s *suiteEnv, w *workspace, name string) bool {
	t.Helper()
	written, err := os.ReadFile(w.path("GEMINI.md"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := adapterRun(t, s, &geminiAgent, w, runOptions{
		name:   name,
		files:  map[string]string{".env": envSecret + "\n", "GEMINI.md": string(written)},
		script: fakemodel.Script{Steps: []fakemodel.Step{fakemodel.Text("Hello.")}},
		client: clientScript{Prompts: textPrompts("Say hello.")},
	})
	r.wait()
	return secretReachedModel(r)
}

// TestAdapterGeminiImportNextSession: an agent writes a GEMINI.md whose
// "@" import of .env Gemini CLI reads otherwise than the name the bridge
// judged (it ends a name only at space, tab, CR and LF, and Node resolves
// "x<no-break space>/../.env" to .env), or appends one with a shell
// command whose words hold no '@' (printf's \100). The next session loads
// GEMINI.md and would put .env, which the policy denies reading, into the
// model's first request. The bridge refuses the write and asks about the
// command (refused here), and the secret never reaches the model.
func TestAdapterGeminiImportNextSession(t *testing.T) {
	s := needSuite(t)
	a := &geminiAgent
	cases := []struct {
		name string
		step func(w *workspace) fakemodel.Step
	}{
		{"no-break-space", func(w *workspace) fakemodel.Step {
			return a.write(w.path("GEMINI.md"), "# Project\n\nSettings: @x\u00a0/../.env\n")
		}},
		{"vertical-tab", func(w *workspace) fakemodel.Step {
			return a.write(w.path("GEMINI.md"), "# Project\n\nSettings: @x\v/../.env\n")
		}},
		{"shell-octal", func(*workspace) fakemodel.Step { return a.shell(`printf 'Settings: \100.env\n' >> GEMINI.md`) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			r, _ := adapterRun(t, s, a, w, runOptions{
				name:   "gemini-import-" + c.name,
				files:  map[string]string{".env": envSecret + "\n", "GEMINI.md": "# Project\n"},
				script: fakemodel.Script{Steps: []fakemodel.Step{c.step(w), fakemodel.Text("Written.")}},
				client: clientScript{Permission: "reject", Prompts: textPrompts("Write the project notes.")},
			})
			r.wait()
			if geminiNextSession(t, s, w, "gemini-import-next-"+c.name) {
				t.Errorf("the secret reached the model through the GEMINI.md the first session wrote")
			}
		})
	}
}
