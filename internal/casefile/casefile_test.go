package casefile

import (
	"slices"
	"strings"
	"testing"
)

// TestParse reads case files: tabs separate fields (a run of them is one
// separator), comments and blank lines are skipped, a quoted field is a Go
// string literal, and vars are replaced, the longer name first.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, data string
		cols       int
		want       []Row
		err        string
	}{
		{"fields", "# a comment\n\nls\t\tallow\nrm x\tdeny\n", 2, []Row{{3, []string{"ls", "allow"}}, {4, []string{"rm x", "deny"}}}, ""},
		{"quoted", "\"a\\tb\"\t\"\"\n", 2, []Row{{1, []string{"a\tb", ""}}}, ""},
		{"vars", "$ROOT/$OUT\t$OUTER\n", 2, []Row{{1, []string{"/r/o", "x"}}}, ""},
		{"few fields", "ls\n", 2, nil, "t.txt:1: 1 fields, want 2"},
		{"bad quote", "\"a\tb\n", 2, nil, "t.txt:1: field 1:"},
		{"no cases", "# only a comment\n", 2, nil, "t.txt: no cases"},
	} {
		got, err := Parse("t.txt", []byte(c.data), c.cols, map[string]string{"$ROOT": "/r", "$OUT": "o", "$OUTER": "x"})
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || !slices.EqualFunc(got, c.want, func(a, b Row) bool { return a.Line == b.Line && slices.Equal(a.Fields, b.Fields) }) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// TestReadMissing: a file that is not there is an error, not a table of
// no cases.
func TestReadMissing(t *testing.T) {
	if _, err := Read(t.TempDir()+"/none.txt", 1, nil); err == nil {
		t.Error("Read of a missing file: no error")
	}
}
