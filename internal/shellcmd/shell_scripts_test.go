package shellcmd

import (
	"slices"
	"testing"
)

// TestShellScripts: the files a shell or source runs as shell code are
// listed on the command, through wrappers and options, so that a caller
// reads their text; a computed one is listed as computed, and a shell
// given its code another way lists none.
func TestShellScripts(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{"bash s.sh", []string{"s.sh"}},
		{"sh -e s.sh a b", []string{"s.sh"}},
		{"bash -x -o pipefail lib/s.sh", []string{"lib/s.sh"}},
		{"bash -- \"$f\"", []string{"\"$f\" (parameter expansion $f)"}},
		{"source env.sh", []string{"env.sh"}},
		{". ./env.sh x", []string{"./env.sh"}},
		{"timeout 5 env A=1 nohup dash s.sh", []string{"s.sh"}},
		{"xargs bash s.sh", []string{"s.sh"}},
		{"bash < s.sh", []string{"s.sh"}},
		{"bash 3< s.sh /dev/fd/3", []string{"s.sh"}},
		{"source /dev/stdin < s.sh", []string{"s.sh"}},
		{"bash \"$f\"", nil}, // an option word computed: noted, not listed
		{"bash -c 'rm x'", nil},
		{"bash <<< 'rm x'", nil},
		{"cat s.sh | bash", nil},
		{"python3 s.py", nil},
		{"./s.sh", nil},
	} {
		a := Analyze(c.line, Options{})
		var got []string
		for _, cmd := range a.Commands {
			for _, s := range cmd.ShellScripts {
				got = append(got, s.Name.String())
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: shell scripts %q; want %q", c.line, got, c.want)
		}
	}
}

// TestScriptOptionNoHistory: a script file is not typed at an interactive
// bash, so a "!" in it is no history expansion and no problem of the
// text; the same text as a line is.
func TestScriptOptionNoHistory(t *testing.T) {
	text := "[ ! -f x ] && echo !x\n"
	if a := Analyze(text, Options{Script: true}); len(a.Problems) != 0 {
		t.Errorf("as a script: problems %q; want none", a.Problems)
	}
	if a := Analyze(text, Options{}); len(a.Problems) == 0 {
		t.Errorf("as a line: no problem; want the history expansion")
	}
}
