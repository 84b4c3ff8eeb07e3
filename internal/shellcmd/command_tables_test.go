package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestCommandTablesRunTheirValues: an element of BASH_CMDS is the file a
// name runs and an element of BASH_ALIASES the text it expands to, so each
// value is a command of the line, as hash -p's file and alias's text are,
// in every spelling of the assignment; a file given without a '/' is
// opened where bash runs (./ls), not found in PATH, for hash -p too. zsh's
// commands, aliases, galiases, saliases and functions, and its hash
// NAME=FILE, are decided alike, however filled (set -A commands ls /bin/rm too).
// Before, the line carried only the note that it changes what commands
// run, and BASH_CMDS[cat]=/bin/rm; cat x ran rm under a rule refusing it.
func TestCommandTablesRunTheirValues(t *testing.T) {
	for _, tc := range []struct {
		line string
		runs string // a form the line must hold; "" for none with the value
	}{
		{"BASH_CMDS[cat]=/bin/rm; cat x", "/bin/rm"},
		{"BASH_CMDS['cat']=/bin/rm; cat x", "/bin/rm"},
		{"BASH_CMDS=([cat]=/bin/rm); cat x", "/bin/rm"},
		{"BASH_CMDS+=([cat]=/bin/rm); cat x", "/bin/rm"},
		{"declare -A BASH_CMDS=([cat]=/bin/rm); cat x", "/bin/rm"},
		{"local -A BASH_CMDS=([cat]=./e [ls]=/bin/rm)", "/bin/rm"},
		{"BASH_CMDS[cat]=ls; cat", "./ls"},
		{"hash -p ls cat; cat", "./ls"},
		{"hash -pls cat; cat", "./ls"},
		{"BASH_ALIASES[cat]='rm x'; cat", "rm x"},
		{"BASH_ALIASES=([cat]='rm x')", "rm x"},
		{"BASH_ALIASES[c]=r; BASH_ALIASES[c]+='m x'", "rm x"},
		{"BASH_ALIASES[c]+='rm x'", "rm x"},
		{"BASH_CMDS[cat]=$(date); cat", "<BASH_CMDS set to a value known only when the line runs>"},
		{"BASH_CMDS=(); ls", ""},
		{"declare -a arr=(/usr/bin/tr); ls", ""},
		{"commands[ls]=/bin/rm; ls x", "/bin/rm"},
		{"commands=(ls /bin/rm); ls x", "/bin/rm"},
		{"commands+=(ls /bin/rm); ls x", "/bin/rm"},
		{"set -A commands ls /bin/rm; ls x", "/bin/rm"},
		{"set +A commands ls /bin/rm; ls x", "/bin/rm"},
		{"set -A aliases l rm; eval 'l x'", "rm"},
		{"set -A arr ls /bin/rm; ls x", ""},
		{"hash ls=/bin/rm; ls x", "/bin/rm"},
		{"hash -r ls=rm; ls x", "./rm"},
		{"hash -d ls=/bin/rm; ls x", ""},
		{"aliases[ls]='rm x'; eval ls", "rm x"},
		{"galiases[L]='| rm x'", "rm x"},
		{"functions[ls]='rm x'; ls", "rm x"},
	} {
		forms := formsOf(Analyze(tc.line, Options{}))
		has := slices.ContainsFunc(forms, func(f string) bool {
			return f == tc.runs || strings.HasPrefix(f, tc.runs+" =>") || strings.HasSuffix(f, "=> "+tc.runs)
		})
		if tc.runs == "" {
			has = slices.ContainsFunc(forms, func(f string) bool { return f == "/usr/bin/tr" || f == "/bin/rm" })
		}
		if has != (tc.runs != "") {
			t.Errorf("%s: forms %q, want one running %q", tc.line, forms, tc.runs)
		}
	}
}
