package shellcmd

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/casefile"
)

// caseRows reads testdata/cases/name (casefile.Parse: a case a line,
// fields separated by tabs, "#" comments, Go-quoted fields); every line
// must have cols fields.
func caseRows(t *testing.T, name string, cols int) []casefile.Row {
	t.Helper()
	rows, err := casefile.Read("testdata/cases/"+name, cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// caseBool reads field i of r: "true" or "false".
func caseBool(t *testing.T, r casefile.Row, i int) bool {
	t.Helper()
	switch r.Fields[i] {
	case "true":
		return true
	case "false":
		return false
	}
	t.Fatalf("line %d: field %d is %q, want true or false", r.Line, i+1, r.Fields[i])
	return false
}

// checkRunsRmNotedCases checks each row of testdata/cases/name,
// LINE<TAB>RUNS_RM<TAB>NOTED, with checkRunsRmNoted.
func checkRunsRmNotedCases(t *testing.T, name string) {
	t.Helper()
	for _, r := range caseRows(t, name, 3) {
		checkRunsRmNoted(t, r.Fields[0], caseBool(t, r, 1), caseBool(t, r, 2))
	}
}

// checkRunsRmAskedCases checks each row of testdata/cases/name,
// LINE<TAB>RUNS_RM<TAB>ASKED: whether the line runs rm (checkRunsRm), and
// whether it needs approval (a problem of its analysis).
func checkRunsRmAskedCases(t *testing.T, name string) {
	t.Helper()
	for _, r := range caseRows(t, name, 3) {
		line := r.Fields[0]
		a := checkRunsRm(t, line, caseBool(t, r, 1))
		if asked, want := len(a.Problems) > 0, caseBool(t, r, 2); asked != want {
			t.Errorf("line %d: Analyze(%q): needs approval %v, want %v (problems %q)", r.Line, line, asked, want, a.Problems)
		}
	}
}

// checkReadsCases checks each row of testdata/cases/file,
// LINE<TAB>A COMMAND IT READS, with checkReads under opts.
func checkReadsCases(t *testing.T, file string, opts Options) {
	t.Helper()
	for _, r := range caseRows(t, file, 2) {
		checkReads(t, r.Fields[0], opts, r.Fields[1])
	}
}
