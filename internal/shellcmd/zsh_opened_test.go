package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestZshClobberTarget checks the file zsh's >! and its kin write: the
// rest of the word after the "!", or the next word where the "!" stands
// alone, where bash writes a file named "!".
func TestZshClobberTarget(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"echo pwned >! .env", ".env"},
		{"echo pwned >>! .env", ".env"},
		{"echo pwned &>! .env x", ".env"},
		{"echo pwned >!.env", ".env"},
		{`echo pwned 2>! ".e"nv`, ".env"},
		{"echo pwned >! $f", "?"},
		{"echo pwned >! *.md", "*.md"},
	} {
		var got []string
		for _, r := range Analyze(tt.line, Options{}).Redirects {
			if strings.HasPrefix(r.Via, "zsh's ") {
				name := r.Target.Text
				if r.Target.Kind == Dynamic {
					name = "?"
				}
				got = append(got, name)
			}
		}
		// sh's grammar reads "&>!" as "&" and ">!": one file either way.
		got = slices.Compact(got)
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%q: zsh writes %q, want [%q]", tt.line, got, tt.want)
		}
	}
}

// TestNumericRangeWord checks the pattern zsh's numeric glob reads as: the
// word around it with one or more digits in its place.
func TestNumericRangeWord(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"cat key<->.pem", "key[0-9]*.pem"},
		{"cp x keys/k<1-9>.pem", "keys/k[0-9]*.pem"},
		{"cat a<->b c", "a[0-9]*b"},
		{`cat "a"<->b`, ""},
	} {
		var got []string
		for _, r := range Analyze(tt.line, Options{}).Redirects {
			if r.Via == "zsh's numeric glob" {
				got = append(got, r.Target.Text)
			}
		}
		got = slices.Compact(got)
		if tt.want == "" && len(got) != 0 || tt.want != "" && (len(got) != 1 || got[0] != tt.want) {
			t.Errorf("%q: zsh's numeric glob reads %q, want %q", tt.line, got, tt.want)
		}
	}
}
