package governance

import "testing"

// TestNpmrcScriptShell decides npm lines whose project .npmrc names the
// agent's script shell or a module node loads first. Before, only
// package.json was read, so "npm test" ran ./evil, which empties the
// policy, under any rule allowing npm, or on approval.
func TestNpmrcScriptShell(t *testing.T) {
	checkTreeLines(t, "npmrc_tree.txt", "  default: allow\n  deny: [Bash(rm:*)]\n", "npmrc_lines.txt")
}
