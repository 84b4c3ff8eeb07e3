package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCheckoutIndexPrefixLines decides the lines of
// testdata/cases/checkout_index_prefix_lines.txt in a git work tree whose
// index holds t/hooks/pre-commit, OVERNANCE.md, a.key and src/s.go, under
// a policy allowing git and denying edits of secrets/*.key: git
// checkout-index --prefix writes the prefix followed by each path from the
// top of the work tree, wherever the command runs.
func TestCheckoutIndexPrefixLines(t *testing.T) {
	root := tempTree(t, []string{"src/export", "secrets"}, []string{"t/hooks/pre-commit", "OVERNANCE.md", "a.key", "src/s.go"})
	e := rootPolicyEngine(t, root, "  default: ask\n  allow:\n    - Bash(git:*)\n    - Bash(cd:*)\n  deny:\n    - Edit(./secrets/*.key)\n")
	if err := os.MkdirAll(filepath.Join(root, "x", "y"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../src", filepath.Join(root, "x", "y", "L")); err != nil { // x/y/L/.. is the root
		t.Fatal(err)
	}
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", "t", "OVERNANCE.md", "a.key", "src")
	checkCommandLines(t, e, root, "checkout_index_prefix_lines.txt", map[string]string{"$ROOT": root})
}
