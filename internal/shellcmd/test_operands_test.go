package shellcmd

import "testing"

// TestTestOperands: the static operands of an arithmetic comparison in
// [[ ]] are read as the arithmetic bash evaluates, quoted or not. Its rows
// are in testdata/cases/test_operand_lines.txt.
func TestTestOperands(t *testing.T) {
	for _, r := range caseRows(t, "test_operand_lines.txt", 3) {
		line := r.Fields[0]
		a := checkRunsRm(t, line, caseBool(t, r, 1))
		if asked, want := len(a.Problems) > 0, caseBool(t, r, 2); asked != want {
			t.Errorf("line %d: Analyze(%q): needs approval %v, want %v (problems %q)", r.Line, line, asked, want, a.Problems)
		}
	}
}
