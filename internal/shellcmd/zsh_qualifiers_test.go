package shellcmd

import (
	"slices"
	"testing"
)

// TestQualifierCode checks the code a glob qualifier list runs: each e
// qualifier's delimited argument and each + qualifier's name.
func TestQualifierCode(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want []string
	}{
		{"e:'rm x':", []string{"'rm x'"}},
		{".e{rm x}", []string{"rm x"}},
		{"e[cat .env]om", []string{"cat .env"}},
		{"e<a>e(b)", []string{"a", "b"}},
		{"+rm", []string{"rm"}},
		{"u:root:e:rm x:", []string{"rm x"}},
		{"#qe/rm x/", []string{"rm x"}},
		{"om[1,3]", nil},
		{".", nil},
		{"D", nil},
		{"f:u+x:", nil},
	} {
		if got := qualifierCode(tt.q); !slices.Equal(got, tt.want) {
			t.Errorf("qualifierCode(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

// TestGlobQualifierCodeWalked checks that a line's glob qualifiers have
// their code walked as commands of the line, whether or not bash parses
// it, and that parentheses bash reads as its own are not taken for them.
func TestGlobQualifierCodeWalked(t *testing.T) {
	runs := func(line, program string) bool {
		for _, c := range Analyze(line, Options{}).Commands {
			for _, f := range c.Forms {
				if len(f) > 0 && f[0].Text == program {
					return true
				}
			}
		}
		return false
	}
	for _, line := range []string{"ls sub/*(e:'rm x':)", "ls a(e:rm x:)", "print -l *(.e{'rm x'})", "ls a(+rm)", "ls a(#qe:rm:)"} {
		if !runs(line, "rm") {
			t.Errorf("%q: rm not among its commands", line)
		}
	}
	for _, line := range []string{"(echo e:rm:)", "echo $(echo e:rm:)", "a=(e:rm:)", `echo "x(e:rm:)"`, "echo 'x(e:rm:)'", "'x(e:rm:)'", "f() { :; }"} {
		if runs(line, "rm") {
			t.Errorf("%q: rm read as a command", line)
		}
	}
}
