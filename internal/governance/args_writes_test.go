package governance

import "testing"

// TestOperandsWritten: a program the table knows changes the files its
// operands name (chmod, truncate, sed -i, mkdir, touch, rm, mv, ...) has
// each of them decided as a write, so one outside the workspace is denied
// as a write tool's would be, whoever approves the command, and one a rule
// refuses editing is refused; the words that are not files (chmod's mode,
// sed's script, an option's value) are not written.
func TestOperandsWritten(t *testing.T) {
	root := tempTree(t, []string{"sub", "drafts"}, []string{".env", "a.txt", "drafts/d.txt"})
	out := tempTree(t, nil, []string{"victim.txt", "ref.txt"})
	checkPolicyLines(t, root, "operands_written_lines.txt", map[string]string{"$ROOT": root, "$OUT": out},
		"  default: allow\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n  ask:\n    - Edit(./drafts/**)\n  allow:\n    - Read\n    - Edit(./**)\n")
}
