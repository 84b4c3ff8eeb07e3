package shellcmd

import "testing"

// TestContinuationsJoined: a backslash-newline inside double quotes, an
// expansion's word or an unquoted here-document's body is removed by the
// shells before they read what it joins, so "$\<newline>(rm x)" runs rm x
// (bash 5.2 and dash run it for each line that says so); in single quotes
// and a quoted here-document it stays. Its rows are in
// testdata/cases/continuation_lines.txt.
func TestContinuationsJoined(t *testing.T) {
	for _, r := range caseRows(t, "continuation_lines.txt", 2) {
		checkRunsRm(t, r.Fields[0], caseBool(t, r, 1))
	}
}

// TestContinuationsRemovedNames: a name a line continuation parts from
// the $ of its $'...' string is read as the shells join it, so
// cat .e$\<newline>'\x6e'v reads .env. Its rows are in
// testdata/cases/continuation_names.txt.
func TestContinuationsRemovedNames(t *testing.T) {
	checkReadsCases(t, "continuation_names.txt", Options{})
}
