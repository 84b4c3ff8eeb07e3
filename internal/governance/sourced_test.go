package governance

import "testing"

// TestSourcedDefinitions: a rule allowing source vouches for the sourced
// file's own commands, not for what its definitions make of the line's
// other commands. Before, "source fn.sh; ls", fn.sh holding
// "ls() { rm x; }", was allowed by Bash(source:*) and Bash(ls:*) and ran
// rm under deny Bash(rm:*). Now the line's other commands are asked
// about; a rule refusing one still refuses it, and a line without a
// source keeps its decision.
func TestSourcedDefinitions(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt"})
	writeFiles(t, root, map[string]string{"fn.sh": "ls() { rm x; }\n"}, 0o644)
	e := rootPolicyEngine(t, root, "  allow: [Bash(ls:*), Bash(source:*), Bash(builtin:*), Bash(git:*)]\n  deny: [Bash(rm:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"source fn.sh; ls", RequireApproval},
		{"builtin source fn.sh; ls", RequireApproval},
		{". ./fn.sh && git status", RequireApproval},
		{"ls; source fn.sh", RequireApproval},
		{"source fn.sh; rm x", Deny},
		{"source fn.sh", Allow},
		{"ls; git status", Allow},
	})
}
