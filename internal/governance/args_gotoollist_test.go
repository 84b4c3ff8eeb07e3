package governance

import "testing"

// TestGoToolListProblem checks how a tool flag list value is split and
// which flag of it is not known to be quiet.
// Its rows are in testdata/cases/go_tool_lists.txt.
func TestGoToolListProblem(t *testing.T) {
	checkFuncCases(t, "goToolListProblem", goToolListProblem, "go_tool_lists.txt")
}
