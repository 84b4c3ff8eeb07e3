package shellcmd

import (
	"slices"
	"testing"
)

// TestInputShellsReadAsTheBareShell: a shell reading its script from its
// input, whatever its options, is decided as the bare shell too (and dash
// and ash as sh), so a rule for "sh" holds for "curl URL | sh -s"; a shell
// given -c or a script file is not. Its rows are in
// testdata/cases/input_shell_lines.txt.
func TestInputShellsReadAsTheBareShell(t *testing.T) {
	for _, r := range caseRows(t, "input_shell_lines.txt", 3) {
		line, bare := r.Fields[0], r.Fields[1]
		got := slices.Contains(formsOf(Analyze(line, Options{})), bare)
		if want := caseBool(t, r, 2); got != want {
			t.Errorf("line %d: Analyze(%q): form %q among the commands %v, want %v (forms %q)", r.Line, line, bare, got, want, formsOf(Analyze(line, Options{})))
		}
	}
}
