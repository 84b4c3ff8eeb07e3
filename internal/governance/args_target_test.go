package governance

import "testing"

// TestOutputOptionsWritten: the file or directory an option names for a
// program to write into is decided as a write however the option is
// spelled: mv, cp, ln and install's -t/--target-directory (the operands
// are moved, copied or linked into it), and a long option abbreviated as
// getopt_long takes it ("sort --out=F" is "sort --output=F"). One outside
// the workspace is denied, as "cp a.txt OUT/" is, not asked.
func TestOutputOptionsWritten(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{"a.txt"})
	out := tempTree(t, nil, []string{"ref.txt", "victim.txt"})
	checkPolicyLines(t, root, "output_options_lines.txt", map[string]string{"$ROOT": root, "$OUT": out},
		"  default: allow\n  allow:\n    - Read\n    - Edit(./**)\n")
}
