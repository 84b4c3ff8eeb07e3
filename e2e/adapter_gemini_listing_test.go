package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// geminiListingPolicy allows every call but reading the secrets directory.
var geminiListingPolicy = governanceDoc("e2e-gemini-listing", "e2e Gemini listing",
	"Every call is allowed but reading secrets.", "  default: allow\n  deny:\n    - Read(./secrets/**)\n")

// geminiListedName is the name of the file in secrets/, which a tool
// listing that directory tells the model.
const geminiListedName = "hunter2-launch-codes.txt"

// TestAdapterGeminiListingReadDenied: list_directory and glob read a
// directory: the names of the files in it. A Read rule refusing a directory
// refuses them there, as it refuses Claude Code's LS, Glob and Grep; Gemini
// runs both without asking in its plan mode (its read-only tools), so the
// admin policy must name them for the rule to hold there.
func TestAdapterGeminiListingReadDenied(t *testing.T) {
	s := needSuite(t)
	for _, c := range []struct {
		name, mode, tool string
		step             fakemodel.Step
	}{
		{"list_directory plan", "plan", "list_directory", fakemodel.Tool("list_directory", map[string]any{"dir_path": "secrets"})},
		{"glob plan", "plan", "glob", fakemodel.Tool("glob", map[string]any{"pattern": "secrets/*"})},
		{"list_directory default", "", "list_directory", fakemodel.Tool("list_directory", map[string]any{"dir_path": "secrets"})},
		{"glob default", "", "glob", fakemodel.Tool("glob", map[string]any{"pattern": "secrets/*"})},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := geminiOwnFiles{
				name:   "gemini-listing",
				mode:   c.mode,
				prompt: "List the secrets.",
				files:  map[string]string{"secrets/" + geminiListedName: "x\n", "README.md": "hello\n"},
				step:   c.step,
			}.run(t, s, newWorkspace(t), geminiListingPolicy)
			answered := false
			for _, out := range functionResponses(t, r) {
				answered = answered || strings.HasPrefix(out, `{"name":"`+c.tool+`"`)
				if strings.Contains(out, geminiListedName) {
					t.Errorf("BYPASS: the name of a file in secrets/ reached the model under Read(./secrets/**) deny: %s", out)
				}
			}
			if !answered {
				t.Errorf("the model got no answer to its %s call\n%s", c.tool, r.stderrTail())
			}
		})
	}
}

// functionResponses returns each tool result Gemini sent the model, as
// JSON; the workspace's folder structure Gemini puts in its first request
// is not among them.
func functionResponses(t *testing.T, r *run) []string {
	t.Helper()
	var out []string
	for _, body := range mainRequestsText(r) {
		var req struct {
			Contents []struct {
				Parts []struct {
					FunctionResponse json.RawMessage `json:"functionResponse"`
				} `json:"parts"`
			} `json:"contents"`
		}
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatalf("a model request is not JSON: %v", err)
		}
		for _, c := range req.Contents {
			for _, p := range c.Parts {
				if len(p.FunctionResponse) > 0 {
					out = append(out, string(p.FunctionResponse))
				}
			}
		}
	}
	return out
}
