package shellcmd

import (
	"slices"
	"testing"
)

// TestZshGlobQualifierCode: the code zsh's e and + glob qualifiers run is
// read as commands of the line. Its rows are in
// testdata/cases/zsh_qualifier_lines.txt.
func TestZshGlobQualifierCode(t *testing.T) {
	for _, r := range caseRows(t, "zsh_qualifier_lines.txt", 2) {
		checkRunsRm(t, r.Fields[0], caseBool(t, r, 1))
	}
}

// TestQualifierStrings: the strings the e and + qualifiers of a pattern
// run.
func TestQualifierStrings(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{`e:'rm x':`, []string{`'rm x'`}},
		{`.e-rm\ x-`, []string{`rm\ x`}},
		{`e[rm x]`, []string{`rm x`}},
		{`e{a}e<b>`, []string{`a`, `b`}},
		{`+rm`, []string{`rm`}},
		{`.+f,e:g:`, []string{`f`, `g`}},
		{`e:unclosed`, []string{`unclosed`}},
		{`om[1,3]`, nil},
		{`.`, nil},
	} {
		if got := qualifierStrings(tc.pattern); !slices.Equal(got, tc.want) {
			t.Errorf("qualifierStrings(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}
