package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEnterWorktreeReadsWhatItCopies decides Claude Code's EnterWorktree
// as reading the ignored files .worktreeinclude names, which it copies
// into the new work tree beyond the reach of rules anchored at the
// workspace: a denied file among them refuses it. Its rows are in
// testdata/cases/worktree_include.txt.
func TestEnterWorktreeReadsWhatItCopies(t *testing.T) {
	root := t.TempDir()
	tree{files: []string{"secrets/api.key", "notes/a.local", "README.md"}}.make(t, root)
	p := testPolicy(t, "  default: allow\n  deny:\n    - Read(./secrets/*.key)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, c := range caseRows(t, "worktree_include.txt", 3, nil) {
		name, include, want := c.fields[0], c.fields[1], Value(c.fields[2])
		t.Run(name, func(t *testing.T) {
			inc := filepath.Join(root, ".worktreeinclude")
			os.Remove(inc)
			if include != "" {
				if err := os.WriteFile(inc, []byte(include), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			req, err := ClaudeToolRequest("EnterWorktree", []byte(`{"name":"wt1"}`), root)
			if err != nil {
				t.Fatal(err)
			}
			if d := e.Decide(req); d.Value != want {
				t.Errorf("EnterWorktree with %q = %v (%s); want %v", include, d.Value, d.Reason, want)
			}
		})
	}
}

// TestWorktreeMakersReadWhatTheyCopy decides every Claude Code call that
// checks out a work tree (EnterWorktree, an Agent call with an isolation
// or a subagent type defined in a file, a Workflow) as reading what the
// repository's .worktreeinclude names, also when Claude's cwd is below the
// repository's top. Its rows are in testdata/cases/worktree_makers.txt.
func TestWorktreeMakersReadWhatTheyCopy(t *testing.T) {
	root := t.TempDir()
	tree{files: []string{"secrets/api.key", "sub/x.txt", "README.md"}}.make(t, root)
	if err := os.WriteFile(filepath.Join(root, ".worktreeinclude"), []byte("secrets/api.key\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testPolicy(t, "  default: allow\n  deny:\n    - Read(./secrets/*.key)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, c := range caseRows(t, "worktree_makers.txt", 5, nil) {
		name, tool, input, sub, want := c.fields[0], c.fields[1], c.fields[2], c.fields[3], Value(c.fields[4])
		t.Run(name, func(t *testing.T) {
			req, err := ClaudeToolRequest(tool, []byte(input), filepath.Join(root, sub))
			if err != nil {
				t.Fatal(err)
			}
			if d := e.Decide(req); d.Value != want {
				t.Errorf("%s %s in %q = %v (%s); want %v", tool, input, sub, d.Value, d.Reason, want)
			}
		})
	}
}
