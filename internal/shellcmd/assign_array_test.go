package shellcmd

import (
	"slices"
	"testing"
)

// TestArrayElementsAreValues: each static element of an array the line
// sets is a value the variable may give ("${a[@]}", "${a[i]}"), as each
// value of a scalar is; an element computed at run time is not known.
func TestArrayElementsAreValues(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{`a=(x .e); cat "${a[1]}nv"`, []string{".e", "x"}},
		{`a+=(y); declare -a a=(z)`, []string{"y", "z"}},
		{`a=("$HOME" x)`, []string{"x"}},
		{`a=()`, nil},
	} {
		var got []string
		for _, as := range Analyze(tc.line, Options{}).Assignments {
			if as.Name == "a" && as.Static && as.Value != "" {
				got = append(got, as.Value)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: static values of a %q, want %q", tc.line, got, tc.want)
		}
	}
}
