package governance

import "testing"

// TestOperandsMayChange: a program the bridge does not know leaves what it
// is given as it is may change it, so a file it names that a rule refuses
// editing refuses the command, and one a rule asks about is asked unless a
// rule allowed the program; a descriptor's name written to opens the file
// the line redirected onto that descriptor again, to write, and a program
// the bridge does not know may do the same with its input. Programs known
// to leave their operands alone, behind wrappers too, read as before.
func TestOperandsMayChange(t *testing.T) {
	root := tempTree(t, []string{"secrets", "drafts", "held"}, []string{"secrets/a.key", "drafts/d.txt", "held/h.txt", "a.txt", "tool.py"})
	out := tempTree(t, nil, []string{"victim.txt"})
	checkPolicyLines(t, root, "operands_maywrite_lines.txt", map[string]string{"$OUT": out},
		"  default: allow\n  deny:\n    - Edit(./secrets/*.key)\n  escalate:\n    - Edit(./held/*.txt)\n  ask:\n    - Edit(./drafts/**)\n  allow:\n    - Bash(python3:*)\n")
}
