package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCommandTablesDecided: an assignment to BASH_CMDS or BASH_ALIASES is
// decided by what it makes a name run, as hash -p and alias are: rm under
// a rule refusing it, the agent's ls that empties the policy by
// self-protection, whatever rule allows the line. Before, each was asked
// about as a variable that changes what commands run, and approved, ran.
// A table element naming a harmless program is still asked about (bash
// evaluates an unquoted subscript), not refused.
func TestCommandTablesDecided(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt", "x"})
	if err := os.WriteFile(filepath.Join(root, "ls"), []byte("#!/bin/sh\n: > GOVERNANCE.md\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := rootPolicyEngine(t, root, "  allow: [Bash, Env(BASH_CMDS), Env(BASH_ALIASES)]\n  deny: [Bash(rm:*)]\n")
	checkCommandLines(t, e, root, "command_table_lines.txt", nil)
}
