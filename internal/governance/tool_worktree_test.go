package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEnterWorktreeReadsWhatItCopies decides Claude Code's EnterWorktree
// as reading the ignored files .worktreeinclude names, which it copies
// into the new work tree beyond the reach of rules anchored at the
// workspace: a denied file among them refuses it.
func TestEnterWorktreeReadsWhatItCopies(t *testing.T) {
	root := t.TempDir()
	tree{files: []string{"secrets/api.key", "notes/a.local", "README.md"}}.make(t, root)
	p := testPolicy(t, "  default: allow\n  deny:\n    - Read(./secrets/*.key)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []struct {
		name, include string // include "" when there is no .worktreeinclude
		want          Value
	}{
		{"no .worktreeinclude", "", Allow},
		{"a path naming the secret", "secrets/api.key\n", Deny},
		{"a directory pattern", "secrets/\n", Deny},
		{"a plain name the secret has", "# keys\napi.key\n", Deny},
		{"a plain name pattern matching it", "*.key\n", Deny},
		{"a negation", "*\n!README.md\n", Deny},
		{"plain names of allowed files", "*.local\n.env\n", Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inc := filepath.Join(root, ".worktreeinclude")
			os.Remove(inc)
			if tt.include != "" {
				if err := os.WriteFile(inc, []byte(tt.include), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			req, err := ClaudeToolRequest("EnterWorktree", []byte(`{"name":"wt1"}`), root)
			if err != nil {
				t.Fatal(err)
			}
			if d := e.Decide(req); d.Value != tt.want {
				t.Errorf("EnterWorktree with %q = %v (%s); want %v", tt.include, d.Value, d.Reason, tt.want)
			}
		})
	}
}
