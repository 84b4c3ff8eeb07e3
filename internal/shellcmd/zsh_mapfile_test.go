package shellcmd

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestMapfileUses checks the files a line's mapfile subscripts open, read
// ("r") where an expansion takes them and read and written ("rw") anywhere
// else, whether or not the line parses as bash.
func TestMapfileUses(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"echo $mapfile[.env]", []string{"r .env"}},
		{"echo ${mapfile[.env]}", []string{"r .env"}},
		{"print ${(f)mapfile[a.txt]} ${#mapfile[b]}", []string{"r a.txt", "r b"}},
		{"mapfile[GOVERNANCE.md]=x", []string{"rw GOVERNANCE.md"}},
		{"unset 'mapfile[GOVERNANCE.md]'", []string{"rw GOVERNANCE.md"}},
		{`echo $mapfile["a b"]`, []string{"r ?mapfile[a b]"}},
		{"echo $mapfile[$x]", []string{"r ?mapfile[$x]"}},
		{"echo $mapfile[a[1]]", []string{"r ?mapfile[a[1]]"}},
		{"zsh -c 'echo $mapfile[.env]'", []string{"r .env"}},
		{"echo $xmapfile[.env] mapfile -t a", nil},
	} {
		var got []string
		for _, r := range Analyze(tt.line, Options{}).Redirects {
			if r.Via != mapfileVia {
				continue
			}
			mode := "r"
			if r.Write {
				mode = "rw"
			}
			name := r.Target.Text
			if r.Target.Kind != Static {
				name = "?" + name
			}
			got = append(got, fmt.Sprintf("%s %s", mode, name))
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: mapfile files %q, want %q", tt.line, got, tt.want)
		}
	}
}

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
