package shellcmd

import (
	"slices"
	"testing"
)

// TestZshNullCommands: zsh runs $READNULLCMD (or $NULLCMD) for a statement
// of redirections alone, so after the line sets one, that statement is read
// as the command it names given the redirections: READNULLCMD=sh; < s runs
// the script s. Before, only the assignment was seen, and with it approved
// zsh ran what s holds (hostile cases zshnullcommands/*). A line that sets
// neither reads the statement as the redirections it is.
func TestZshNullCommands(t *testing.T) {
	for _, tc := range []struct {
		line, runs string // runs: a form the line must hold, "" for none
	}{
		{"READNULLCMD=sh; < s", "sh"},
		{"NULLCMD=bash; < s > out", "bash"},
		{"export READNULLCMD=python3; < s", "python3"},
		{"< s", ""},
		{"> out.txt", ""},
		{"READNULLCMD=sh; cat < s", ""},
	} {
		forms := formsOf(Analyze(tc.line, Options{}))
		has := slices.ContainsFunc(forms, func(f string) bool {
			return f == "sh" || f == "bash" || f == "python3"
		})
		if has != (tc.runs != "") || tc.runs != "" && !slices.Contains(forms, tc.runs) {
			t.Errorf("%s: forms %q, want one running %q", tc.line, forms, tc.runs)
		}
	}
}
