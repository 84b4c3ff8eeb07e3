package shellcmd

import "testing"

// TestTestOperands: the static operands of an arithmetic comparison in
// [[ ]] are read as the arithmetic bash evaluates, quoted or not. Its rows
// are in testdata/cases/test_operand_lines.txt.
func TestTestOperands(t *testing.T) {
	checkRunsRmAskedCases(t, "test_operand_lines.txt")
}
