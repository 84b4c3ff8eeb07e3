package shellcmd

import (
	"os"
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
		ifs   *string  // IFS, the default when nil
	}{
		{[]string{"f"}, ".env", nil},
		{[]string{"-r", "f"}, `.e\nv`, nil},
		{[]string{"f"}, `.e\nv`, nil},
		{[]string{"f"}, "a\\\nb", nil},
		{[]string{"a", "b"}, "  x  .env  y ", nil},
		{[]string{"a", "b", "c"}, "x", nil},
		{nil, "rm x", nil},
		{[]string{"-a", "arr"}, "x .env", nil},
		{[]string{"-ra", "arr"}, `x .e\nv`, nil},
		{[]string{"-d", "x", "f"}, ".env", nil},
		{[]string{"-d", "x", "f"}, ".exnv", nil},
		{[]string{"-dx", "f"}, "rmxq", nil},
		{[]string{"-d", "", "f"}, "a\nb", nil},
		{[]string{"-d", "q", "a", "b"}, "rm\nx", nil},
		{[]string{"-n", "2", "f"}, "rmx", nil},
		{[]string{"-n2", "f"}, "r\\mx", nil},
		{[]string{"-rn2", "f"}, "r\\mx", nil},
		{[]string{"-N", "3", "f"}, "rm", nil},
		{[]string{"-N", "2", "f"}, " rm", nil},
		{[]string{"-n", "9", "f"}, "r m\nx", nil},
		{[]string{"-p", "say:", "f"}, "rm", nil},
		{[]string{"-s", "-t", "5", "f"}, "rm", nil},
		{[]string{"-ei", "x", "f"}, "rm", nil},
		{[]string{"--", "f"}, "rm", nil},
		{[]string{"-n", "1", "-a", "arr"}, "rm", nil},
		{[]string{"-u", "0", "f"}, "rm", nil},
		{[]string{"-x", "f"}, "rm", nil},
		{[]string{"-a", "A"}, "r,m", ptr(",")},
		{[]string{"-a", "A"}, "r,,m,", ptr(",")},
		{[]string{"a", "b"}, "r,m", ptr(",")},
		{[]string{"a", "b"}, " r , m ", ptr(", ")},
		{[]string{"a", "b"}, "x,rm,y", ptr(",")},
		{[]string{"a", "b", "c"}, "x:rm:", ptr(":")},
		{[]string{"a"}, "  rm  ", ptr("")},
		{[]string{"-a", "A"}, "r m", ptr("")},
		{[]string{"a", "b"}, "r\tm x", ptr("\t")},
	} {
		form := []Word{{Kind: Static, Text: "read"}}
		for _, a := range tc.args {
			form = append(form, Word{Kind: Static, Text: a})
		}
		got := map[string][]string{}
		var names []string
		ifs := defaultIFS
		if tc.ifs != nil {
			ifs = *tc.ifs
		}
		assigns, _ := readValues(form, tc.input+"\n", ifs)
		for _, a := range assigns {
			if !slices.Contains(names, a.Name) {
				names = append(names, a.Name)
			}
			got[a.Name] = append(got[a.Name], a.Value)
		}
		if len(names) == 0 {
			continue // read as computed at run time: asked about
		}
		script := `IFS=$IFSVALUE read "${@:2}" <<< "$1"; for n in ` + strings.Join(names, " ") + `; do declare -n v=$n; printf '%s=' "$n"; printf '%s\0' "${v[@]}"; printf '\1'; unset -n v; done`
		cmd := exec.Command("bash", append([]string{"-c", script, "bash", tc.input}, tc.args...)...)
		cmd.Env = append(os.Environ(), "IFSVALUE="+ifs)
		out, err := cmd.Output()
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
		if got, _ := readValues(form, "rm\n", defaultIFS); got != nil {
			t.Errorf("readValues(%v) = %v, want none", form, got)
		}
	}
}

// ptr returns a pointer to s.
func ptr(s string) *string { return &s }
