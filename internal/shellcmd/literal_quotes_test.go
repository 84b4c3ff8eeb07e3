package shellcmd

import (
	"strings"
	"testing"
)

// TestLiteralQuotesPastSubstitutions: quoted text that bash reads unquoted
// in an arithmetic expression is found after any number of substitutions
// before it in the same expression, which the walk of the quoted text does
// not enter (and so must not count as nesting it has entered).
func TestLiteralQuotesPastSubstitutions(t *testing.T) {
	for _, n := range []int{0, 1, 130, 300} {
		line := "echo $(( " + strings.Repeat("${x:-$(:)}", n) + " + ((((('$(touch k)'))))) ))"
		a := Analyze(line, Options{})
		found := false
		for _, p := range a.Problems {
			found = found || strings.Contains(p, "bash reads the quotes as characters")
		}
		touched := false
		for _, c := range a.Commands {
			touched = touched || c.Forms[0][0].Text == "touch"
		}
		if !found || !touched {
			t.Errorf("%d substitutions before it: quoted text read as bash reads it %v, touch walked %v", n, found, touched)
		}
	}
}
