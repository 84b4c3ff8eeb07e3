package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestStartedAsArgv0: a program started under another name (exec -a,
// env -a and --argv0, zsh's ARGV0 before the command or set on the line
// before it) is decided as the program that name says too, as a
// multi-call program acts on it: git as git-SUB runs "git SUB", busybox
// the applet the name gives. Without such a name, or with one only known
// when the line runs, no other form is added.
func TestStartedAsArgv0(t *testing.T) {
	tests := []struct {
		line string
		want []string // forms one of the line's commands must be, in order
		not  string   // no command may hold a form starting so
	}{
		{line: "exec -a git-rm git status -rf .", want: []string{"exec -a git-rm git status -rf . => git status -rf .", "git-rm status -rf .", "git rm status -rf ."}},
		{line: "exec -cla git-push git status --force", want: []string{"git push status --force"}},
		{line: "exec -arm busybox ls x", want: []string{"rm ls x"}},
		{line: "exec -a /bin/rm -- ls x", want: []string{"rm x"}},
		{line: "exec -l -a -rm busybox ls x", want: []string{"rm ls x"}},
		{line: "env -a rm ls x", want: []string{"rm x"}},
		{line: "env --argv0=git-rm git status .", want: []string{"git rm status ."}},
		{line: "env --argv0 rm -- ls x", want: []string{"rm x"}},
		{line: "env -a rm -S 'ls x'", want: []string{"rm x"}},
		{line: "ARGV0=git-rm git status -rf .", want: []string{"git rm status -rf ."}},
		{line: `ARGV0="rm" ls x`, want: []string{"rm x"}},
		{line: "set -a; ARGV0=git-rm; git status .", want: []string{"git rm status ."}},
		{line: "export ARGV0=rm; ls x", want: []string{"rm x"}},
		{line: "typeset -x ARGV0=rm; echo ok; ls x", want: []string{"rm x"}},
		{line: "exec ls x", not: "rm"},
		{line: "exec -l ls x", not: "-ls"},
		{line: "ARGV0=$X ls x", not: "$X"},
		{line: "X=git-rm git status", not: "git rm"},
		{line: "env ls x", not: "rm"},
	}
	for _, tt := range tests {
		forms := formsOf(Analyze(tt.line, Options{}))
		for _, want := range tt.want {
			if !slices.ContainsFunc(forms, func(f string) bool { return f == want || strings.HasSuffix(f, " => "+want) }) {
				t.Errorf("Analyze(%q): forms %q; want one ending %q", tt.line, forms, want)
			}
		}
		if tt.not != "" {
			for _, f := range forms {
				for _, part := range strings.Split(f, " => ") {
					if strings.HasPrefix(part, tt.not) {
						t.Errorf("Analyze(%q): form %q; want none starting %q", tt.line, part, tt.not)
					}
				}
			}
		}
	}
}
