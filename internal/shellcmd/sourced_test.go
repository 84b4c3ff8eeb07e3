package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestMarkSourced: every command of a line that sources a file, but the
// source itself, carries a note no rule vouches for, wherever it stands
// and through whatever runs the source; a line without one carries none.
func TestMarkSourced(t *testing.T) {
	for _, c := range []struct {
		line   string
		marked []string // the commands' sources that carry the note
	}{
		{"source fn.sh; ls", []string{"ls"}},
		{". ./fn.sh && ls -l", []string{"ls -l"}},
		{"builtin source fn.sh; ls", []string{"ls"}},
		{"command . fn.sh; git st", []string{"git st"}},
		{"eval 'source fn.sh'; ls", []string{"eval 'source fn.sh'", "ls"}},
		{"for i in 1 2; do ls; source fn.sh; done", []string{"ls"}},
		{"set -a; . ./.env; make", []string{"set -a", "make"}},
		{"source fn.sh", nil},
		{"ls; git status", nil},
		{"echo source fn.sh; ls", nil},
	} {
		a := Analyze(c.line, Options{})
		var marked []string
		for _, cmd := range a.Commands {
			for _, n := range cmd.Notes {
				if n.Kind == LoadsCode && strings.Contains(n.Text, "fn.sh defines") || n.Kind == LoadsCode && strings.Contains(n.Text, ".env defines") {
					marked = append(marked, cmd.Source)
				}
			}
		}
		if !slices.Equal(marked, c.marked) {
			t.Errorf("%s: marked %q, want %q", c.line, marked, c.marked)
		}
	}
}
