package shellcmd

import (
	"slices"
	"testing"
)

// TestApplyZshModifiers checks modifiers in a row applied as zsh applies
// them, and those the bridge does not apply refused.
func TestApplyZshModifiers(t *testing.T) {
	for _, tt := range []struct {
		v, mods, want string
		ok            bool
	}{
		{"RM.C", ":l:r", "rm", true},
		{".ENV.B", ":l:r", ".env", true},
		{"a/RM.c", ":t:l:r", "rm", true},
		{"a/b/c.d", ":h:t", "b", true},
		{"srm", ":s/s//:l", "rm", true},
		{"r.m.m", ":gs/./", "rmm", true},
		{"x.tar.gz", ":e:u", "GZ", true},
		{"x", ":a", "", false},
		{"a/b/c", ":h2", "", false},
		{"ab", ":s/a*/x/", "", false},
	} {
		got, ok := applyZshModifiers(tt.v, tt.mods)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("applyZshModifiers(%q, %q) = %q, %v; want %q, %v", tt.v, tt.mods, got, ok, tt.want, tt.ok)
		}
	}
}

// TestZshModifiedReadingsRun checks that a line's modifiers in a row,
// applied to the value it shows, give the command zsh runs, and that one
// whose value the line does not show gives none.
func TestZshModifiedReadingsRun(t *testing.T) {
	runsRm := func(line string) bool {
		return slices.ContainsFunc(Analyze(line, Options{}).Commands, func(c *Command) bool {
			return slices.ContainsFunc(c.Forms, func(f []Word) bool { return f[0].Text == "rm" })
		})
	}
	for _, line := range []string{"x=RM.C; $x:l:r x", "x=RM.C; ${x:l:r} x", "x=a/RM.c; $x:t:l:r x"} {
		if !runsRm(line) {
			t.Errorf("%q: rm not among its commands", line)
		}
	}
	if runsRm("x=$1; $x:l:r x") {
		t.Error("x=$1; $x:l:r x: rm read from a value the line does not show")
	}
}
