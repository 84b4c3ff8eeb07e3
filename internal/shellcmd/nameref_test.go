package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestClassifyEnvCommandNames: bash's own tables of what a command name
// runs (BASH_CMDS, the hash table; BASH_ALIASES, the aliases), where it
// loads builtins from, and POSIX mode, in which aliases expand in scripts,
// change what a command name runs.
// Its rows are in testdata/cases/env_command_names.txt.
func TestClassifyEnvCommandNames(t *testing.T) {
	checkClassifyEnv(t, "env_command_names.txt")
}

// TestAnalyzeCommandNameTables: every way a line sets an element of
// BASH_CMDS or BASH_ALIASES is an assignment of that variable, whatever
// the subscript's quotes; a nameref declaration carries a NotStatic note,
// so no rule for declare vouches for what a later assignment through it
// sets; other declarations carry none.
func TestAnalyzeCommandNameTables(t *testing.T) {
	for _, tc := range []struct {
		line    string
		assigns string // a variable the line assigns, or ""
		nameref bool
	}{
		{`BASH_CMDS['ls']=./e; ls`, "BASH_CMDS", false},
		{`BASH_CMDS["ls"]=./e; ls`, "BASH_CMDS", false},
		{`BASH_CMDS[ls]=./e; ls`, "BASH_CMDS", false},
		{`BASH_CMDS+=(['ls']=./e); ls`, "BASH_CMDS", false},
		{`BASH_CMDS=(); ls`, "BASH_CMDS", false},
		{`declare -A BASH_CMDS=(['ls']=./e); ls`, "BASH_CMDS", false},
		{`local -A BASH_ALIASES; ls`, "BASH_ALIASES", false},
		{`BASH_ALIASES['ls']='rm -f'; ls`, "BASH_ALIASES", false},
		{`declare -n r=BASH_CMDS; r['ls']=./e; ls`, "", true},
		{`typeset -n r=PATH; r=./bin; ls`, "", true},
		{`local -gn r=BASH_ENV`, "", true},
		{`declare -n r; r=PATH`, "", true},
		{`builtin declare -n r=PATH`, "", true},
		{`declare -? r=PATH; r=./bin; ls`, "", true},
		{`local -[n] r=PATH`, "", true},
		{`typeset -* r=PATH`, "", true},
		{`declare $opt r=PATH`, "", true},
		{`declare -a arr=(1 2); ls`, "", false},
		{`declare x=$(date); ls`, "", false},
		{`declare +n r; ls`, "", false},
		{`export -n FOO; ls`, "", false},
		{`declare -- -n; ls`, "", false},
	} {
		a := Analyze(tc.line, Options{})
		if tc.assigns != "" {
			var names []string
			for _, as := range a.Assignments {
				names = append(names, as.Name)
			}
			if !slices.Contains(names, tc.assigns) {
				t.Errorf("Analyze(%q) assigns %q, want %s among them", tc.line, names, tc.assigns)
			}
		}
		if got := hasNote(a, NotStatic); got != tc.nameref {
			t.Errorf("Analyze(%q): NotStatic note %v, want %v", tc.line, got, tc.nameref)
		}
	}
}

// TestHashRunsItsFile: hash -p FILE NAME makes NAME run FILE, so FILE is
// one of the line's commands, as after a wrapper, in every spelling of
// -p; hash without -p runs nothing.
func TestHashRunsItsFile(t *testing.T) {
	for _, tc := range []struct {
		line string
		runs string
	}{
		{"hash -p ./x cat", "./x"},
		{"hash -p./x cat", "./x"},
		{"hash -rp ./x cat", "./x"},
		{"hash -p /bin/rm ls; ls y", "/bin/rm"},
		{"hash -r", ""},
		{"hash -t ls", ""},
	} {
		forms := formsOf(Analyze(tc.line, Options{}))
		runs := slices.ContainsFunc(forms, func(f string) bool { return strings.HasSuffix(f, " => "+tc.runs) })
		if tc.runs == "" {
			runs = slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(f, " => ") })
		}
		if runs != (tc.runs != "") {
			t.Errorf("%s: forms %q, want it to run %q", tc.line, forms, tc.runs)
		}
	}
}

// TestAliasJoiningNextText: an alias whose text ends in a backslash or an
// open quote runs on into the text after its use, which no reading of the
// value alone shows, so it carries a NotStatic note (no rule naming alias
// vouches for it); an alias of a whole command carries none.
func TestAliasJoiningNextText(t *testing.T) {
	for _, tc := range []struct {
		line  string
		joins bool
	}{
		{"alias a='r\\'\na\nm victim", true},
		{`alias a="echo \"x"`, true},
		{`alias a="echo '"`, true},
		{`alias ll='ls -l'`, false},
		{`alias a='echo "x"'`, false},
		{`alias a='echo \\'`, false},
	} {
		if got := hasNote(Analyze(tc.line, Options{}), NotStatic); got != tc.joins {
			t.Errorf("%q: NotStatic note %v, want %v", tc.line, got, tc.joins)
		}
	}
}
