package e2e

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/adapter"
	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterGeminiAdminPolicyDefault checks, with the real Gemini CLI and
// no bridge, that the policy's default reaches Gemini's own engine: under
// default deny Gemini offers the model no read_file (no rule names it; a
// tool its policy denies whole is left out of the model's tools), so the
// file's content never reaches the model and nobody is asked; with the
// default allow (the control) Gemini asks, as it does about every call
// there for the bridge to decide, and reads the file once the client
// allows it.
func TestAdapterGeminiAdminPolicyDefault(t *testing.T) {
	s := needSuite(t)
	for _, tc := range []struct {
		def        string
		wantRefuse bool
	}{{"deny", true}, {"allow", false}} {
		t.Run(tc.def, func(t *testing.T) {
			w := newWorkspace(t)
			r := geminiAdminRun(t, s, w, adapter.Rules{Deny: []string{"Bash(touch:*)"}, Default: tc.def}, runOptions{
				name:   "gemini-admin-default-" + tc.def,
				files:  map[string]string{"notes.txt": envSecret + "\n"},
				script: fakemodel.Script{Steps: []fakemodel.Step{geminiAgent.read(w.path("notes.txt")), fakemodel.Text("Done.")}},
				client: clientScript{Prompts: textPrompts("Read notes.txt.")},
			})
			offered := false
			for _, q := range r.model.Requests() {
				offered = offered || strings.Contains(string(q.Body), `"name":"read_file"`)
			}
			if offered == tc.wantRefuse || secretReachedModel(r) == tc.wantRefuse {
				t.Errorf("default %s: read_file offered to the model = %v, content reached the model = %v; want neither = %v\n%s",
					tc.def, offered, secretReachedModel(r), tc.wantRefuse, r.stderrTail())
			}
		})
	}
}
