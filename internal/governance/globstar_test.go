package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGlobstarWordsAsked: bash -O globstar reads a last element ** as every
// name beneath; a reader given sub/** needs approval where a rule refuses
// a file deeper down, instead of being allowed as a read of sub's entries.
func TestGlobstarWordsAsked(t *testing.T) {
	root := tempTree(t, []string{"sub/dir"}, []string{"a.txt"})
	if err := os.WriteFile(filepath.Join(root, "sub/dir/.env"), []byte("SECRET=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(testPolicy(t, "  allow: [Bash(cat:*), Bash(bash:*)]\n  deny: [Read(**/.env)]\n"), EngineOptions{Roots: []string{root}})
	checkCommandRows(t, e, root, []commandRow{
		{"cat sub/**", RequireApproval},
		{"bash -O globstar -O dotglob -c 'cat sub/**'", RequireApproval},
		{"cat sub/*", Allow},
	})
}
