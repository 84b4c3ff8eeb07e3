package governance

import "testing"

// TestExtGlobsDecided: an extended glob is asked about, and what bash
// reads in it is decided whatever the person approves: a command
// substitution in its pattern (refused by the rule refusing rm) and the
// names it may match (the policy, .env). Before, each was only asked
// about, and approved, ran rm or wrote the policy.
func TestExtGlobsDecided(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt", ".env", "x"})
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n  deny: [Bash(rm:*), Read(**/.env)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"shopt -s extglob\necho @($(rm x))", Deny},
		{"shopt -s extglob\necho pwned > @(GOVERNANCE).md", Deny},
		{"shopt -s extglob\necho pwned > @(zz|GOVERNANCE).m?", Deny},
		{"shopt -s extglob\ncat < @(.e)nv", Deny},
		{"shopt -s extglob\nls @(a|b).txt", RequireApproval},
	})
}
