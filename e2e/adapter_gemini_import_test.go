package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterGeminiMemoryImport: Gemini CLI's memory loader
// (processImports) replaces each "@path" of a GEMINI.md with the text of
// the file it names, inside the project, with no tool call or
// fs/read_text_file anyone sees. Gemini writes GEMINI.md through the IDE
// (fs/write_text_file), and the bridge refuses a GEMINI.md importing the
// .env a rule denies reading: the file keeps its text (against 4f4d7b4's
// bridge Gemini wrote the import), and the .env reaches no model request.
func TestAdapterGeminiMemoryImport(t *testing.T) {
	s := needSuite(t)
	a := &geminiAgent
	w := newWorkspace(t)
	r, _ := adapterRun(t, s, a, w, runOptions{
		name:  "gemini-import",
		files: map[string]string{".env": envSecret + "\n", "GEMINI.md": "# Project\n"},
		script: fakemodel.Script{Steps: []fakemodel.Step{
			a.write(w.path("GEMINI.md"), "# Project\n\nSettings: @.env\n"),
			fakemodel.Text("Written."),
			fakemodel.Text("Hello."),
		}},
		client: clientScript{Prompts: textPrompts("Write the project notes.", "/memory refresh", "Say hello.")},
	})
	sum := r.wait()
	t.Logf("summary %+v", sum)
	written, _ := os.ReadFile(w.path("GEMINI.md"))
	t.Logf("GEMINI.md: %q", written)
	if secretReachedModel(r) {
		t.Fatalf("the .env content reached the model through the GEMINI.md import")
	}
	if strings.Contains(string(written), ".env") {
		t.Errorf("GEMINI.md holds %q: the write importing .env was not refused", written)
	}
}
