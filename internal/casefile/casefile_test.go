package casefile

import (
	"slices"
	"strings"
	"testing"
)

// vars are the variables every case of TestParse reads with: $OUTER
// shares the start of $OUT, so the longer name must be replaced first.
var vars = map[string]string{"$ROOT": "/r", "$OUT": "o", "$OUTER": "x"}

// TestParse reads case files: tabs separate fields (a run of them is one
// separator), comments and blank lines are skipped, a quoted field is a Go
// string literal, and vars are replaced, the longer name first.
func TestParse(t *testing.T) {
	for name, c := range map[string]struct {
		data string
		want []Row
	}{
		"fields": {"# a comment\n\nls\t\tallow\nrm x\tdeny\n", []Row{{3, []string{"ls", "allow"}}, {4, []string{"rm x", "deny"}}}},
		"quoted": {"\"a\\tb\"\t\"\"\n", []Row{{1, []string{"a\tb", ""}}}},
		"vars":   {"$ROOT/$OUT\t$OUTER\n", []Row{{1, []string{"/r/o", "x"}}}},
	} {
		got, err := Parse("t.txt", []byte(c.data), 2, vars)
		if err != nil || !slices.EqualFunc(got, c.want, func(a, b Row) bool { return a.Line == b.Line && slices.Equal(a.Fields, b.Fields) }) {
			t.Errorf("%s: %v, %v; want %v", name, got, err, c.want)
		}
	}
}

// TestParseRefuses: a line with another number of fields, a quoted field
// that is no Go string, and a file of no cases are errors naming the file
// and the line.
func TestParseRefuses(t *testing.T) {
	for data, want := range map[string]string{
		"ls\n":               "t.txt:1: 1 fields, want 2",
		"\"a\tb\n":           "t.txt:1: field 1:",
		"# only a comment\n": "t.txt: no cases",
	} {
		if _, err := Parse("t.txt", []byte(data), 2, vars); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q): error %v, want %q", data, err, want)
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
