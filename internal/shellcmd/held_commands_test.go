package shellcmd

import "testing"

// TestHeldCommandWordsRead: a command word made of literals and
// expansions whose values the line shows in full (ParamValues) is read as
// each value it may have, with the words after it (bash and dash run rm x for
// each line that says so). Its rows are in
// testdata/cases/held_command_lines.txt.
func TestHeldCommandWordsRead(t *testing.T) {
	for _, r := range caseRows(t, "held_command_lines.txt", 2) {
		checkRunsRm(t, r.Fields[0], caseBool(t, r, 1))
	}
}
