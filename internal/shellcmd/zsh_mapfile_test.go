package shellcmd

import (
	"fmt"
	"slices"
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
