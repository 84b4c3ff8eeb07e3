package shellcmd

import "testing"

// TestPrintfValue: the text printf -v sets where the line shows it, and
// none for a format with escapes or other conversions, or a word computed
// at run time.
func TestPrintfValue(t *testing.T) {
	static := func(ws ...string) []Word {
		var out []Word
		for _, w := range ws {
			out = append(out, Word{Kind: Static, Text: w})
		}
		return out
	}
	for _, tc := range []struct {
		args []Word
		want string
		ok   bool
	}{
		{static("rm"), "rm", true},
		{static("%s.md", "GOVERNANCE"), "GOVERNANCE.md", true},
		{static("--", "a%%b%s"), "a%b", true},
		{static("%s"), "", true},
		{static(`\x2eenv`), "", false},
		{static("%d", "1"), "", false},
		{static("%s", "a", "b"), "", false},
		{static("x%"), "", false},
		{[]Word{{Kind: Dynamic, Text: "$f"}}, "", false},
		{nil, "", false},
	} {
		got, ok := printfValue(tc.args)
		if got != tc.want || ok != tc.ok {
			t.Errorf("printfValue(%v) = %q, %v; want %q, %v", tc.args, got, ok, tc.want, tc.ok)
		}
	}
}
