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
