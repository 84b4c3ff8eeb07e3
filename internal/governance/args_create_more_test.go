package governance

import "testing"

// TestNamesACommandMayCreateSpelled: a name a command may create outside
// the workspace is denied however the line spells it: as a short option's
// attached value ("sort -oFILE", after a cluster "-soFILE"), or as a glob
// that matches nothing, which the shell passes on as it is written. A file
// a rule denies reading is denied as an attached value too ("grep -f.env").
// less is no plain reader: its -o writes a log file.
func TestNamesACommandMayCreateSpelled(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt"})
	out := tempTree(t, nil, []string{"there.txt"})
	checkPolicyLines(t, root, "may_create_spelled_lines.txt", map[string]string{"$ROOT": root, "$OUT": out},
		"  default: ask\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n  allow:\n    - Read\n    - Edit(./**)\n"+
			"    - Bash(sort:*)\n    - Bash(touch:*)\n    - Bash(cat:*)\n    - Bash(grep:*)\n    - Bash(less:*)\n")
}
