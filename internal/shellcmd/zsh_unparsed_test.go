package shellcmd

import (
	"slices"
	"testing"
)

// TestZshGlobPatterns checks the patterns a word zsh's own grammar reads
// is taken to match: a group's alternatives, flags and trailing qualifiers
// as nothing, anything else of zsh's as "*".
func TestZshGlobPatterns(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{".e(n|x)v", []string{".env", ".exv"}},
		{"(.env|x)", []string{".env", "x"}},
		{"(#i).ENV", []string{".ENV"}},
		{"(#a1).enx", []string{"*"}},
		{"*.txt(.)", []string{"*.txt"}},
		{"k<1-9>.pem", []string{"k[0-9]*.pem"}},
		{".e(n|(x))v", []string{".e*v"}},
		{"a.txt", []string{"a.txt"}},
	} {
		got, _ := zshGlobPatterns(tt.text)
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("zshGlobPatterns(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestZshUnparsedWords checks that a line bash does not parse has the
// words zsh reads in it recorded as files it may open, and a line bash
// parses none.
func TestZshUnparsedWords(t *testing.T) {
	opened := func(line string) []string {
		var out []string
		for _, r := range Analyze(line, Options{}).Redirects {
			if r.Via == zshUnparsedVia {
				out = append(out, r.Target.Text)
			}
		}
		return out
	}
	for line, want := range map[string]string{"cat .e(n|x)v": ".env", "cat ${:-.env}": ".env", "cat (#i).ENV": ".ENV"} {
		if got := opened(line); !slices.Contains(got, want) {
			t.Errorf("%q: zsh's reading opens %q, want %q among them", line, got, want)
		}
	}
	if got := opened("cat .env a.txt"); len(got) != 0 {
		t.Errorf("a line bash parses: zsh's reading opens %q", got)
	}
}
