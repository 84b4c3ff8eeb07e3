package shellcmd

import "testing"

// TestZshPromptArgs: the arguments of zsh's print -P are read as the
// prompt zsh expands, so a command substitution anywhere in one is a
// command of the line, and one known only at run time needs approval. Its
// rows are in testdata/cases/zsh_prompt_lines.txt.
func TestZshPromptArgs(t *testing.T) {
	checkRunsRmAskedCases(t, "zsh_prompt_lines.txt")
}

// TestPrintPrompts: which option words of print give it -P.
func TestPrintPrompts(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-P", "x"}, true},
		{[]string{"-rnP", "x"}, true},
		{[]string{"-u", "2", "-P", "x"}, true},
		{[]string{"-u2", "-P", "x"}, true},
		{[]string{"-u", "P", "x"}, false},
		{[]string{"-vP", "x"}, false},
		{[]string{"--", "-P"}, false},
		{[]string{"-", "-P"}, false},
		{[]string{"x", "-P"}, false},
		{[]string{"-r", "x"}, false},
	} {
		var args []Word
		for _, s := range tc.args {
			args = append(args, Word{Kind: Static, Text: s})
		}
		if got := printPrompts(args); got != tc.want {
			t.Errorf("printPrompts(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
	if !printPrompts([]Word{{Kind: Dynamic, Text: "$o", Why: "parameter expansion $o"}, {Kind: Static, Text: "x"}}) {
		t.Error("printPrompts($o x) = false, want true: $o may be -P")
	}
}
