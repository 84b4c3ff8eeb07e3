package governance

import (
	"path/filepath"
	"testing"
)

// TestGitOptionsLines decides the lines of testdata/cases/git_options_lines.txt
// in a work tree holding the policy, Claude's settings and a key the
// policy keeps from edits, under a policy allowing git: the options of
// each git subcommand are read as git reads them (clusters, prefixes of
// long options, negations), and everyday forms decide as before.
func TestGitOptionsLines(t *testing.T) {
	root := tempTree(t, []string{"src", "empty"}, []string{"secrets/a.key", ".claude/settings.json", "src/a.go"})
	tree{texts: map[string]string{
		"p.diff": "diff --git a/a.key b/a.key\n--- a/a.key\n+++ b/a.key\n@@ -1 +1 @@\n-x\n+y\n",
	}}.make(t, root)
	e := rootPolicyEngine(t, root, "  default: ask\n  allow:\n    - Bash(git:*)\n  deny:\n    - Edit(./secrets/*.key)\n",
		ProtectedPath{Path: filepath.Join(root, ".claude"), What: "Claude's settings"})
	checkCommandLines(t, e, root, "git_options_lines.txt", map[string]string{"$ROOT": root})
}
