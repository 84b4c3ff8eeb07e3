package governance

import "testing"

// TestParallelInputJudged: GNU parallel without ::: takes the arguments
// of its command from its input, one a line, as xargs does, and without a
// command runs each line of its input as a command. A rule allowing
// parallel vouches for neither: "cat list | parallel cat" with .env in
// list, or "parallel < cmds.txt" holding "cat .env", printed the secret
// under allow Bash(parallel:*), Bash(cat:*). Input the line shows (a
// here-string or here-document) is judged as the commands it is.
func TestParallelInputJudged(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt", ".env", "list", "cmds.txt"})
	e := rootPolicyEngine(t, root, "  deny: [Read(**/.env)]\n  allow: [Read, \"Bash(parallel:*)\", \"Bash(cat:*)\"]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"cat list | parallel cat", RequireApproval},
		{"parallel cat < list", RequireApproval},
		{"parallel --will-cite -j2 cat < list", RequireApproval},
		{"parallel < cmds.txt", RequireApproval},
		{"cat cmds.txt | parallel", RequireApproval},
		{"parallel -a list cat", RequireApproval},
		{"parallel cat :::: list", RequireApproval},
		{`parallel <<< "cat .env"`, Deny},
		{"parallel <<'EOF'\ncat a.txt\ncat .env\nEOF", Deny},
		{"parallel cat ::: .env", Deny},
		// Controls: what the line shows is judged as it is.
		{`parallel <<< "cat a.txt"`, Allow},
		{"parallel cat ::: a.txt", Allow},
		{"parallel ::: 'cat a.txt'", Allow},
	})
}
