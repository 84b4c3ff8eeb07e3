package e2e

import (
	"strings"
	"testing"
)

// globOptIn is the IDE's session/new _meta that gives Claude Code its Glob
// tool (see grepOptIn).
var globOptIn = map[string]any{"claudeCode": map[string]any{"options": map[string]any{"allowedTools": []string{"Glob"}}}}

// globPolicy wants each read beneath secrets/ approved. Claude Code's Glob
// leaves out of its listing the files its deny rules name, not those its
// ask rules name.
var globPolicy = governanceDoc("e2e-glob", "e2e glob", "The policy the Glob scenarios run under.", "  default: allow\n  ask:\n    - Read(./secrets/**)\n")

// TestAdapterClaudeGlobListsDeniedDirectory: Claude Code's Glob runs
// ripgrep --files over its path (the cwd without one) with the pattern as
// a --glob, so "secrets/*", or any pattern reaching secrets/, lists the
// names there though its path is the workspace. The bridge decides it as
// listing every directory beneath, as it decides Glob's path naming
// secrets/: the listing is asked about, the person refuses, and no name
// from secrets/ reaches the model. A pattern of a clean directory runs
// unasked.
func TestAdapterClaudeGlobListsDeniedDirectory(t *testing.T) {
	s := needSuite(t)
	a := &claudeAgent
	const hidden = "e2e-hidden-name-4471.key"
	cases := []struct {
		name, pattern string
		runs          bool
	}{
		{"named", "secrets/*", false},
		{"wildcard-dir", "*/*.key", false},
		{"clean", "src/*", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			input := map[string]any{"pattern": c.pattern}
			r := searchRun(t, s, a, w, globPolicy, "Glob", input, runOptions{
				name:   "claude-glob-" + c.name,
				files:  map[string]string{"secrets/" + hidden: "k\n", "src/main.go": "package main\n"},
				client: clientScript{SessionMeta: globOptIn},
			})
			reqs := mainRequestsText(r)
			if len(reqs) < 2 {
				t.Fatalf("the model got no result for the Glob")
			}
			if strings.Contains(strings.Join(reqs, "\n"), hidden) {
				t.Fatalf("BYPASS: Glob %v put the name of a file in secrets/ into the model's context", input)
			}
			got := toolResultText(t, reqs[1], "toolu_fake_step0")
			if ran := strings.Contains(got, "main.go"); ran != c.runs {
				t.Errorf("Glob %v: tool result %q, want it run %v", input, got, c.runs)
			}
		})
	}
}
