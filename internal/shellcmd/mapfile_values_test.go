package shellcmd

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestMapfileElements: the elements mapfile sets from a static
// here-string are the elements bash's mapfile sets, and there are none
// where an option reads from elsewhere or places them elsewhere.
func TestMapfileElements(t *testing.T) {
	for _, tc := range []struct {
		args  []string // mapfile's words after "mapfile"
		input string   // the here-string
	}{
		{[]string{"-t", "a"}, "rm"},
		{[]string{"a"}, "rm"},
		{[]string{"-t"}, "x\nrm\ny"},
		{[]string{"-t", "-s", "1", "a"}, "x\nrm\ny"},
		{[]string{"-t", "-n", "1", "a"}, "rm\nx"},
		{[]string{"-n", "0", "-t", "a"}, "rm\nx"},
		{[]string{"-td", ",", "a"}, "r,m"},
		{[]string{"-d", "", "-t", "a"}, "rm\nx"},
		{[]string{"-t", "-c", "1", "-C", ":", "a"}, "rm"},
		{[]string{"-t", "--", "a"}, "rm"},
		{[]string{"-O", "1", "-t", "a"}, "rm"},
		{[]string{"-u", "0", "a"}, "rm"},
	} {
		form := []Word{{Kind: Static, Text: "mapfile"}}
		for _, a := range tc.args {
			form = append(form, Word{Kind: Static, Text: a})
		}
		name, got, ok := mapfileElements(form, tc.input+"\n")
		if !ok {
			if !slices.Contains(tc.args, "-O") && !slices.Contains(tc.args, "-u") {
				t.Errorf("mapfile %q: not read", tc.args)
			}
			continue
		}
		script := `mapfile "${@:2}" <<< "$1"; declare -n v=` + name + `; printf '%s\0' "${v[@]}"`
		out, err := exec.Command("bash", append([]string{"-c", script, "bash", tc.input}, tc.args...)...).Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(out) == 0 {
			want = []string{}
		}
		if !slices.Equal(got, want) {
			t.Errorf("mapfile %q <<< %q: %s = %q, bash sets %q", tc.args, tc.input, name, got, want)
		}
	}
}
