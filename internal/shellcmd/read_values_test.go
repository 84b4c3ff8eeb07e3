package shellcmd

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestReadValues: the values read sets from a static here-string are the
// values bash's read sets from it, options included, and there are none
// where an option reads from elsewhere or a word is computed at run time.
func TestReadValues(t *testing.T) {
	for _, tc := range []struct {
		args  []string // read's words after "read"
		input string   // the here-string
	}{
		{[]string{"f"}, ".env"},
		{[]string{"-r", "f"}, `.e\nv`},
		{[]string{"f"}, `.e\nv`},
		{[]string{"f"}, "a\\\nb"},
		{[]string{"a", "b"}, "  x  .env  y "},
		{[]string{"a", "b", "c"}, "x"},
		{nil, "rm x"},
		{[]string{"-a", "arr"}, "x .env"},
		{[]string{"-ra", "arr"}, `x .e\nv`},
		{[]string{"-d", "x", "f"}, ".env"},
		{[]string{"-d", "x", "f"}, ".exnv"},
		{[]string{"-dx", "f"}, "rmxq"},
		{[]string{"-d", "", "f"}, "a\nb"},
		{[]string{"-d", "q", "a", "b"}, "rm\nx"},
		{[]string{"-n", "2", "f"}, "rmx"},
		{[]string{"-n2", "f"}, "r\\mx"},
		{[]string{"-rn2", "f"}, "r\\mx"},
		{[]string{"-N", "3", "f"}, "rm"},
		{[]string{"-N", "2", "f"}, " rm"},
		{[]string{"-n", "9", "f"}, "r m\nx"},
		{[]string{"-p", "say:", "f"}, "rm"},
		{[]string{"-s", "-t", "5", "f"}, "rm"},
		{[]string{"-ei", "x", "f"}, "rm"},
		{[]string{"--", "f"}, "rm"},
		{[]string{"-n", "1", "-a", "arr"}, "rm"},
		{[]string{"-u", "0", "f"}, "rm"},
		{[]string{"-x", "f"}, "rm"},
	} {
		form := []Word{{Kind: Static, Text: "read"}}
		for _, a := range tc.args {
			form = append(form, Word{Kind: Static, Text: a})
		}
		got := map[string][]string{}
		var names []string
		for _, a := range readValues(form, tc.input+"\n") {
			if !slices.Contains(names, a.Name) {
				names = append(names, a.Name)
			}
			got[a.Name] = append(got[a.Name], a.Value)
		}
		if len(names) == 0 {
			continue // read as computed at run time: asked about
		}
		script := `read "${@:2}" <<< "$1"; for n in ` + strings.Join(names, " ") + `; do declare -n v=$n; printf '%s=' "$n"; printf '%s\0' "${v[@]}"; printf '\1'; unset -n v; done`
		out, err := exec.Command("bash", append([]string{"-c", script, "bash", tc.input}, tc.args...)...).Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(out), "\x01"), "\x01") {
			name, values, _ := strings.Cut(l, "=")
			want := strings.Split(strings.TrimSuffix(values, "\x00"), "\x00")
			if values == "" {
				want = nil
			}
			if !slices.Equal(got[name], want) && !(len(want) == 1 && want[0] == "" && len(got[name]) == 1 && got[name][0] == "") {
				t.Errorf("read %q <<< %q: %s = %q, bash sets %q", tc.args, tc.input, name, got[name], want)
			}
		}
	}
	for _, form := range [][]Word{
		{{Kind: Static, Text: "read"}, {Kind: Dynamic, Text: "$n"}},
		{{Kind: Static, Text: "read"}, {Kind: Static, Text: "-d"}},
	} {
		if got := readValues(form, "rm\n"); got != nil {
			t.Errorf("readValues(%v) = %v, want none", form, got)
		}
	}
}
