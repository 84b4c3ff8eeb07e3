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
		name, pattern string
		// dir is the directory searched, relative to the workspace; ""
		// gives no path (the cwd).
		dir, glob string
		runs      bool
	}{
		{"cwd", "E2E_SECRET", "", "", false},
		{"workspace", "E2E_SECRET", ".", "", false},
		{"subdir", "E2E_SECRET", "conf", "", false},
		{"glob-list", "E2E_SECRET", "", "*.go,.e*", false},
		{"glob-list-bom", "E2E_SECRET", "", "*.go\ufeff.e*", false},
		{"clean-dir", "note", "src", "", true},
		{"go-files", "note", "", "*.go", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			input := map[string]any{"pattern": c.pattern, "output_mode": "content"}
			if c.dir != "" {
				input["path"] = w.path(c.dir)
			}
			if c.glob != "" {
				input["glob"] = c.glob
			}
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
