package shellcmd

import (
	"slices"
	"testing"
)

// TestExtGlobsAsTheShellReadsThem: after shopt -s extglob (an earlier
// line of bash -c, or Debian's interactive bash, which an IDE's terminal
// runs) bash expands an extended glob's pattern, running its command
// substitutions, and matches names with it. Before, the grammar's text
// was the analysis' too: @($(rm x)) ran rm unseen, and
// echo x > @(GOVERNANCE).md, a word computed at run time with only ".md"
// static, wrote the policy. The substitutions are commands of the line,
// and the word is a glob whose groups match any name (*).
func TestExtGlobsAsTheShellReadsThem(t *testing.T) {
	for _, tc := range []struct {
		line string
		runs string // a form the line must hold
	}{
		{"shopt -s extglob\necho @($(rm x))", "rm x"},
		{"echo @(`rm x`)", "rm x"},
		{"echo ?(a|${u:-$(rm x)})", "rm x"},
		{`ls +(a|"$(rm x)")`, "rm x"},
	} {
		if forms := formsOf(Analyze(tc.line, Options{})); !slices.Contains(forms, tc.runs) {
			t.Errorf("%q: forms %q, want %q among them", tc.line, forms, tc.runs)
		}
	}
	for _, tc := range []struct {
		line string
		want Word
	}{
		{"echo x > @(GOVERNANCE).md", Word{Kind: Glob, Text: "*.md"}},
		{"echo x > GOVERNANCE.!(txt)", Word{Kind: Glob, Text: "GOVERNANCE.*"}},
		{"cat < *(.e)nv", Word{Kind: Glob, Text: "*nv"}},
	} {
		a := Analyze(tc.line, Options{})
		if len(a.Redirects) != 1 || a.Redirects[0].Target.Kind != tc.want.Kind || a.Redirects[0].Target.Text != tc.want.Text {
			t.Errorf("%q: redirects %+v, want one to %v", tc.line, a.Redirects, tc.want)
		}
	}
}
