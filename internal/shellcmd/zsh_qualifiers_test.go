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

// TestTrailingQualifiers: the code the qualifier list a value ends with
// runs, and text that is no such list.
func TestTrailingQualifiers(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  []string
		ok    bool
	}{
		{`x*(e:rm x:)`, []string{`rm x`}, true},
		{`*(.+f)`, []string{`f`}, true},
		{`*(P:-f:e[g])`, []string{`g`}, true},
		{`*(om[1,3])`, nil, true},
		{`*(e:a::h)`, []string{`a`}, true},
		{`done (see log)`, nil, false},
		{`f(exe)`, nil, false},
		{`(a)`, nil, false},
		{`plain`, nil, false},
	} {
		got, ok := trailingQualifiers(tc.value)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("trailingQualifiers(%q) = %q, %v; want %q, %v", tc.value, got, ok, tc.want, tc.ok)
		}
	}
}
