package governance

import "testing"

// TestSourcedDefinitions: a rule allowing source vouches for the sourced
// file's own commands, not for what its definitions make of the line's
// other commands. Before, "source fn.sh; ls", fn.sh holding
// "ls() { rm x; }", was allowed by Bash(source:*) and Bash(ls:*) and ran
// rm under deny Bash(rm:*). Now the line's other commands are asked
// about; a rule refusing one still refuses it, and a line without a
// source keeps its decision. A sourced file whose own text holds a
// command the policy refuses (fn.sh's function body) is refused for it
// (TestScriptCommandsDecided); fn2.sh defines a harmless ls, which still
// makes the line's ls ask.
func TestSourcedDefinitions(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt"})
	writeFiles(t, root, map[string]string{"fn.sh": "ls() { rm x; }\n", "fn2.sh": "ls() { echo hi; }\n"}, 0o644)
	e := rootPolicyEngine(t, root, "  allow: [Bash(ls:*), Bash(source:*), Bash(builtin:*), Bash(git:*)]\n  deny: [Bash(rm:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"source fn2.sh; ls", RequireApproval},
		{"builtin source fn2.sh; ls", RequireApproval},
		{". ./fn2.sh && git status", RequireApproval},
		{"ls; source fn2.sh", RequireApproval},
		{"source fn2.sh; rm x", Deny},
		{"source fn2.sh", Allow},
		{"source fn.sh; ls", Deny},
		{"source fn.sh", Deny},
		{"ls; git status", Allow},
	})
}
