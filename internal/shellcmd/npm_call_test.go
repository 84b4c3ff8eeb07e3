package shellcmd

import "testing"

// TestNpmCallDecided: npm exec runs --call's command line, -c being its
// short form (npm 10 runs rm x for each line that runs it), so the command
// is a command of the line, and npm itself is still decided; after "--"
// the words are the command's.
// Its rows are in testdata/cases/npm_call_lines.txt.
func TestNpmCallDecided(t *testing.T) {
	for _, r := range caseRows(t, "npm_call_lines.txt", 2) {
		a := checkRunsRm(t, r.Fields[0], caseBool(t, r, 1))
		if len(a.Commands) == 0 || a.Commands[0].Transparent {
			t.Errorf("Analyze(%q): npm is not decided as a command of its own", r.Fields[0])
		}
	}
}
