package e2e

import (
	"strings"
	"testing"
)

// geminiSearchPolicy denies reading .env and key files.
var geminiSearchPolicy = governanceDoc("e2e-gemini-search", "e2e Gemini search", "The policy the Gemini search scenarios run under.", "  default: allow\n  deny:\n    - Read(**/.env)\n    - Read(**/*.pem)\n")

// TestAdapterGeminiSearchDeniedBeneath: Gemini CLI's grep_search and
// read_many_files read every file beneath the directory or glob they are
// given, and Gemini runs them without asking anyone, so only its own
// policy engine, which sees their arguments and not the files, decides
// them. Under a policy denying reading .env and *.pem files, the admin
// policy the bridge writes refuses both whole (Gemini then leaves them out
// of its registry), and neither puts a secret into the model's context.
func TestAdapterGeminiSearchDeniedBeneath(t *testing.T) {
	s := needSuite(t)
	a := &geminiAgent
	cases := []struct {
		name  string
		tool  string
		input func(w *workspace) map[string]any
	}{
		{"grep-cwd", "grep_search", func(*workspace) map[string]any { return map[string]any{"pattern": "E2E_SECRET"} }},
		{"grep-dir", "grep_search", func(w *workspace) map[string]any {
			return map[string]any{"pattern": "E2E_SECRET", "dir_path": w.path("conf")}
		}},
		{"grep-legacy-name", "search_file_content", func(*workspace) map[string]any { return map[string]any{"pattern": "E2E_SECRET"} }},
		{"read-many-glob", "read_many_files", func(*workspace) map[string]any {
			return map[string]any{"include": []string{"**/*"}}
		}},
		{"read-many-dir", "read_many_files", func(*workspace) map[string]any {
			return map[string]any{"include": []string{"conf"}}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			input := c.input(w)
			r := searchRun(t, s, a, w, geminiSearchPolicy, c.tool, input, runOptions{
				name: "gemini-search-" + c.name,
				files: map[string]string{".env": envSecret + "\n", "conf/deep/key.pem": envSecret + "\n",
					"src/main.go": "package main // note\n"},
			})
			// A tool the policy refuses whole is left out of Gemini's
			// registry: the model is told it has no such tool.
			if reqs := r.model.MainRequests(); len(reqs) < 2 || !strings.Contains(string(reqs[1].Body), "not found in registry") &&
				!strings.Contains(string(reqs[1].Body), "denied by policy") {
				t.Errorf("the model was not told %s is refused", c.tool)
			}
		})
	}
}
