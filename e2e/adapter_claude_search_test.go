package e2e

import (
	"strings"
	"testing"
)

// grepOptIn is the IDE's session/new _meta that gives Claude Code its Grep
// tool: Claude Code 2.1's native build offers Grep and Glob only to a
// session whose allowedTools name them.
var grepOptIn = map[string]any{"claudeCode": map[string]any{"options": map[string]any{"allowedTools": []string{"Grep"}}}}

// searchPolicy wants each read of a .env approved. Claude Code's Grep
// leaves out of its search the files its deny rules name, not those its
// ask rules name.
var searchPolicy = governanceDoc("e2e-search", "e2e search", "The policy the Grep scenarios run under.", "  default: allow\n  ask:\n    - Read(**/.env)\n")

// TestAdapterClaudeGrepProtectedBeneath: Claude Code's Grep runs ripgrep
// with --hidden over the directory it is given (the cwd without a path), so
// it reads every file beneath it, a .env among them, though it names none.
// The bridge decides such a search as reading each file beneath the
// directory, as it decides "grep -r": a .env whose reading needs approval
// has the search asked about, the person refuses, and the secret never
// reaches the model. A search of a directory holding no such file, or one
// whose glob picks only other files, runs unasked.
func TestAdapterClaudeGrepProtectedBeneath(t *testing.T) {
	s := needSuite(t)
	a := &claudeAgent
	cases := []struct {
		name  string
		input func(w *workspace) map[string]any
		runs  bool
	}{
		{"cwd", func(*workspace) map[string]any {
			return map[string]any{"pattern": "E2E_SECRET", "output_mode": "content"}
		}, false},
		{"workspace", func(w *workspace) map[string]any {
			return map[string]any{"pattern": "E2E_SECRET", "path": w.path(""), "output_mode": "content"}
		}, false},
		{"subdir", func(w *workspace) map[string]any {
			return map[string]any{"pattern": "E2E_SECRET", "path": w.path("conf"), "output_mode": "content"}
		}, false},
		{"glob-list", func(*workspace) map[string]any {
			return map[string]any{"pattern": "E2E_SECRET", "glob": "*.go,.e*", "output_mode": "content"}
		}, false},
		{"glob-list-bom", func(*workspace) map[string]any {
			return map[string]any{"pattern": "E2E_SECRET", "glob": "*.go\ufeff.e*", "output_mode": "content"}
		}, false},
		{"clean-dir", func(w *workspace) map[string]any {
			return map[string]any{"pattern": "note", "path": w.path("src"), "output_mode": "content"}
		}, true},
		{"go-files", func(*workspace) map[string]any {
			return map[string]any{"pattern": "note", "glob": "*.go", "output_mode": "content"}
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			input := c.input(w)
			r := searchRun(t, s, a, w, searchPolicy, "Grep", input, runOptions{
				name: "claude-grep-" + c.name,
				files: map[string]string{".env": envSecret + "\n", "conf/deep/.env": envSecret + "\n",
					"src/main.go": "package main // note\n"},
				client: clientScript{SessionMeta: grepOptIn},
			})
			reqs := mainRequestsText(r)
			if len(reqs) < 2 {
				t.Fatalf("the model got no result for the Grep")
			}
			got := toolResultText(t, reqs[1], "toolu_fake_step0")
			if ran := strings.Contains(got, "main.go"); ran != c.runs {
				t.Errorf("Grep %v: tool result %q, want it run %v", input, got, c.runs)
			}
		})
	}
}
