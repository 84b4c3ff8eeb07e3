package shellcmd

import (
	"strings"
	"testing"
)

// TestDashReadings: a line bash's grammar reads and the POSIX grammar
// here rejects is read as sh (dash) reads it: "&>" ends the command before
// it and the words after it are a command, and an expansion dash does not
// know is a word that fails only when expanded, the line going on after
// it. A construct dash may read past that is not rewritten makes the line
// need approval. Its rows are in testdata/cases/dash_reading_lines.txt.
func TestDashReadings(t *testing.T) {
	for _, r := range caseRows(t, "dash_reading_lines.txt", 3) {
		line, want, problem := r.Fields[0], r.Fields[1], r.Fields[2] == "problem"
		var a *Analysis
		if want != "-" {
			a = checkReads(t, line, Options{}, want)
		} else {
			a = Analyze(line, Options{})
		}
		has := false
		for _, p := range a.Problems {
			if strings.Contains(p, "sh (dash)") {
				has = true
			}
		}
		if has != problem {
			t.Errorf("%q: dash problem %v, want %v (problems %q)", line, has, problem, a.Problems)
		}
	}
}
