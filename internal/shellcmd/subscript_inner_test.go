package shellcmd

import "testing"

// TestInnerSubscripts: a static word holding an array element whose
// subscript holds a command substitution, anywhere in the word, is read as
// running that command, as zsh's arithmetic on its builtins' numbers runs
// it. Its rows are in testdata/cases/inner_subscript_lines.txt.
func TestInnerSubscripts(t *testing.T) {
	for _, r := range caseRows(t, "inner_subscript_lines.txt", 2) {
		checkRunsRm(t, r.Fields[0], caseBool(t, r, 1))
	}
}
