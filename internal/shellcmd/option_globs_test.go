package shellcmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOptionGlobs: a glob operand that may expand to a name starting with
// '-' (a file there, or one a redirection of the line writes) is read
// with that name as an option too, so find's -exec runs what follows it.
func TestOptionGlobs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "-exec"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	for _, tc := range []struct {
		dir, line string
		runsRm    bool
	}{
		{dir, `find x [-]exec rm {} \;`, true},
		{dir, `find x * rm {} \;`, true},
		{empty, `echo > -exec; find x [-]exec rm {} \;`, true},
		{empty, `echo > ./-exec; find x [-]exec rm {} \;`, true},
		{empty, `touch ./-exec; find x [-]exec rm {} \;`, true},
		{empty, `touch -- -exec && find x ?exec rm {} \;`, true},
		{empty, `cp /dev/null ./-exec; find x [-]exec rm {} \;`, true},
		{empty, `dd of=./-exec </dev/null; find x [-]exec rm {} \;`, true},
		{empty, `find . -maxdepth 0 -fprint ./-exec; find x [-]exec rm {} \;`, true},
		{empty, `mkdir -p ./-exec; find x [-]exec rm {} \;`, true},
		{empty, `touch sub/-exec; find x [-]exec rm {} \;`, false},
		{empty, `touch ./-exec & find x [-]exec rm {} \;`, true},
		{empty, `find x [-]exec rm {} \; | tee ./-exec`, true},
		{empty, `bash -c 'find x [-]exec rm {} \; | tee "./-exec"'`, true},
		{empty, `touch ./-exec-not; find x [-]exec rm {} \;`, false},
		{dir, `find x ./[-]exec rm {} \;`, false},
		{empty, `find x [-]exec rm {} \;`, false},
		{empty, `echo > sub/-exec; find x [-]exec rm {} \;`, false},
		{dir, `find x -name '[-]exec'`, false},
	} {
		a := Analyze(tc.line, Options{Dir: tc.dir})
		got := false
		for _, c := range a.Commands {
			for _, f := range c.Forms {
				if len(f) > 0 && f[0].Kind == Static && f[0].Name() == "rm" {
					got = true
				}
			}
		}
		if got != tc.runsRm {
			var forms []string
			for _, c := range a.Commands {
				for _, f := range c.Forms {
					var ws []string
					for _, w := range f {
						ws = append(ws, w.Text)
					}
					forms = append(forms, strings.Join(ws, " "))
				}
			}
			slices.Sort(forms)
			t.Errorf("%q in %s: runs rm %v, want %v (forms %q)", tc.line, tc.dir, got, tc.runsRm, forms)
		}
	}
}
