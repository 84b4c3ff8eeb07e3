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
