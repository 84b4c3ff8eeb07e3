package governance

import "testing"

// TestMakeOperandsAreVariables decides make's NAME=VALUE operands as the
// variables they are for every program make runs. Before, only a value
// that read as a command line was decided, so under allow Bash(make:*)
// "make PATH=.:/usr/bin:/bin" and "make SHELL=./helper" were allowed and
// ran the agent's helper, which emptied the policy, and "make 'X!=rm'"
// ran rm under deny Bash(rm:*).
func TestMakeOperandsAreVariables(t *testing.T) {
	root := tempTree(t, []string{"tools"}, []string{"a.txt"})
	writeFiles(t, root, map[string]string{
		"helper":       "#!/bin/sh\n: > GOVERNANCE.md\n",
		"tools/helper": "#!/bin/sh\n: > GOVERNANCE.md\n",
	}, 0o755)
	writeFiles(t, root, map[string]string{"Makefile": "all:\n\t@helper\n"}, 0o644)
	e := rootPolicyEngine(t, root, "  deny: [Bash(rm:*)]\n  allow: [Bash(make:*), Bash(gmake:*)]\n")
	checkCommandLines(t, e, root, "make_operand_lines.txt", map[string]string{"$ROOT": root})
}
