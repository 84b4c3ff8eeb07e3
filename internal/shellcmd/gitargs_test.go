package shellcmd

import (
	"strings"
	"testing"
)

// TestReadGitArgs checks that a git subcommand's words are read as git's
// parse-options reads them: clusters, a value ending a cluster, prefixes
// of long options (an ambiguous one counting as each option it begins),
// "--no-" negations, values after "=" or in the next word, "--".
func TestReadGitArgs(t *testing.T) {
	for _, c := range []struct {
		sub, line   string
		has, hasNot []string // Has
		surely      []string // Surely
		operands    string
	}{
		{"checkout-index", "-af", []string{"all", "force"}, nil, []string{"all"}, ""},
		{"checkout-index", "-qaf x", []string{"all", "force", "quiet"}, nil, nil, "x"},
		{"checkout-index", "-f --al", []string{"all"}, nil, []string{"all"}, ""},
		{"checkout-index", "-a --no-all", nil, []string{"all"}, nil, ""},
		{"checkout-index", "--create", nil, []string{"no-create"}, nil, ""},
		{"checkout-index", "--prefix=x/ -f", []string{"prefix", "force"}, []string{"all"}, nil, ""},
		{"checkout-index", "--pre x/ -f", []string{"prefix"}, nil, nil, ""},
		{"reset", "--ha", []string{"hard"}, []string{"soft", "merge"}, []string{"hard"}, ""},
		{"reset", "HEAD~1 --soft", []string{"soft"}, []string{"hard"}, nil, "HEAD~1"},
		{"reset", "--merg HEAD", []string{"merge"}, []string{"hard"}, nil, "HEAD"},
		{"read-tree", "-mu HEAD E", []string{"m", "u"}, nil, nil, "HEAD E"},
		{"rm", "--ca x", []string{"cached"}, nil, []string{"cached"}, "x"},
		{"rm", "--cached --no-cached x", nil, []string{"cached"}, nil, "x"},
		{"rm", "x -- --cached", nil, []string{"cached"}, nil, "x --cached"},
		{"stash push", "-qm msg x", []string{"quiet", "message"}, []string{"all"}, nil, "x"},
		{"stash push", "-mu", []string{"message"}, []string{"include-untracked"}, nil, ""},
		{"stash push", "--no-keep-index", nil, []string{"keep-index"}, nil, ""},
		{"restore", "--s x", []string{"source", "staged"}, nil, nil, "x"},
		{"branch", "--set-up origin/main", []string{"set-upstream-to"}, nil, []string{"set-upstream-to"}, ""},
		{"commit", "-am msg", []string{"a", "m"}, nil, nil, "msg"},
		{"commit", "--al", []string{"all", "allow-empty"}, []string{"amend"}, nil, ""},
	} {
		g := ReadGitArgs(c.sub, gitTestWords(c.line))
		for _, n := range c.has {
			if !g.Has(n) {
				t.Errorf("git %s %s: Has(%q) false", c.sub, c.line, n)
			}
		}
		for _, n := range c.hasNot {
			if g.Has(n) {
				t.Errorf("git %s %s: Has(%q) true", c.sub, c.line, n)
			}
		}
		for _, n := range c.surely {
			if !g.Surely(n) {
				t.Errorf("git %s %s: Surely(%q) false", c.sub, c.line, n)
			}
		}
		var ops []string
		for _, w := range g.Operands {
			ops = append(ops, w.Text)
		}
		if got := strings.Join(ops, " "); got != c.operands {
			t.Errorf("git %s %s: operands %q, want %q", c.sub, c.line, got, c.operands)
		}
	}
	if g := ReadGitArgs("reset", []Word{{Kind: Dynamic, Text: "$X"}}); !g.Has("hard") || g.Surely("soft") {
		t.Errorf("git reset $X: a word computed at run time is not taken for any option")
	}
	if v := ReadGitArgs("checkout-index", gitTestWords("--pre x/ -f")).Values("prefix"); len(v) != 1 || v[0].Text != "x/" {
		t.Errorf("git checkout-index --pre x/: value %v", v)
	}
	if ReadGitArgs("restore", gitTestWords("--s x")).Surely("staged") {
		t.Errorf("git restore --s: an ambiguous prefix is surely --staged")
	}
}

// gitTestWords splits line at spaces into static words.
func gitTestWords(line string) []Word {
	var out []Word
	for _, f := range strings.Fields(line) {
		out = append(out, Word{Kind: Static, Text: f})
	}
	return out
}
