package governance

import "testing"

// TestMakeOperandsAreVariables decides make's NAME=VALUE operands as the
// variables they are for every program make runs. Before, only a value
// that read as a command line was decided, so under allow Bash(make:*)
// "make PATH=.:/usr/bin:/bin" and "make SHELL=./helper" were allowed and
// ran the agent's helper, which emptied the policy, and "make 'X!=rm'"
// ran rm under deny Bash(rm:*).
func TestMakeOperandsAreVariables(t *testing.T) {
	checkTreeLines(t, "make_operand_tree.txt", "  deny: [Bash(rm:*)]\n  allow: [Bash(make:*), Bash(gmake:*)]\n", "make_operand_lines.txt")
}
