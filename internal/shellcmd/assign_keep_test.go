package shellcmd

import "testing"

// TestRunTimeValueKeptBesideStatic: a value a variable gets when the line
// runs (read, printf -v) is an assignment of its own beside a static one of
// the same text (x=, declare -i x), so a use of the variable bash
// evaluates as code needs approval (bash 5.2 runs rm x for each line that
// needs it, under a policy allowing printf, read and echo). Its rows are
// in testdata/cases/runtime_value_lines.txt.
func TestRunTimeValueKeptBesideStatic(t *testing.T) {
	for _, r := range caseRows(t, "runtime_value_lines.txt", 2) {
		a := Analyze(r.Fields[0], Options{})
		if asked, want := len(a.Problems) > 0, caseBool(t, r, 1); asked != want {
			t.Errorf("line %d: Analyze(%q): needs approval %v, want %v (problems %q)", r.Line, r.Fields[0], asked, want, a.Problems)
		}
	}
}
