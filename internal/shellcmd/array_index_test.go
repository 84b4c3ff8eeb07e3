package shellcmd

import (
	"strings"
	"testing"
)

// TestCompoundElementSubscriptExpandedTwice: bash expands the subscript of
// a compound array assignment's element once with its word and again as
// arithmetic, so quoting that hides a substitution from the first expansion
// runs it in the second (bash 5.2 runs rm x for each line that says so);
// such a subscript is read as the second expansion reads it and the line
// needs approval. Its rows are in testdata/cases/array_index_lines.txt.
func TestCompoundElementSubscriptExpandedTwice(t *testing.T) {
	for _, r := range caseRows(t, "array_index_lines.txt", 3) {
		line := r.Fields[0]
		a := checkRunsRm(t, line, caseBool(t, r, 1))
		twice := false
		for _, p := range a.Problems {
			twice = twice || strings.Contains(p, "expands the subscript")
		}
		if want := caseBool(t, r, 2); twice != want {
			t.Errorf("line %d: Analyze(%q): subscript read as expanded twice %v, want %v (problems %q)", r.Line, line, twice, want, a.Problems)
		}
	}
}
