package shellcmd

import "testing"

// TestPromptEscapesDecoded: bash decodes a prompt string's three-digit
// octal escapes before it expands the string, so ${X@P} of a value holding
// \044( or \140 runs the command they spell (bash 5.2 runs rm x for each
// line that says so), as ${!X@P} does for the variable X names; the
// escapes bash quotes (\w, \u) and fewer or more digits give no code.
// Its rows are in testdata/cases/prompt_escape_lines.txt.
func TestPromptEscapesDecoded(t *testing.T) {
	checkRunsRmAskedCases(t, "prompt_escape_lines.txt")
}

// TestPromptText: the text bash's prompt decoding leaves for its expansion.
func TestPromptText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`\044(rm x)`, `$(rm x)`},
		{`\140rm x\140`, "`rm x`"},
		{`\\044`, `\\044`},
		{`\0044`, "\x044"},
		{`\44(x)`, `\44(x)`},
		{`\w \u`, `\w \u`},
		{`\1`, `\1`},
		{`plain`, `plain`},
	} {
		if got := promptText(tc.in); got != tc.want {
			t.Errorf("promptText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
