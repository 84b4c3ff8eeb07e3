package governance

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/casefile"
)

// caseRow is one case of a file under testdata/cases: its fields and the
// line it is on.
type caseRow struct {
	line   int
	fields []string
}

// caseRows reads testdata/cases/name (casefile.Parse: a case a line,
// fields separated by tabs, "#" comments, Go-quoted fields, each of vars'
// names replaced by its value); every line must have cols fields.
func caseRows(t *testing.T, name string, cols int, vars map[string]string) []caseRow {
	t.Helper()
	rows, err := casefile.Read("testdata/cases/"+name, cols, vars)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]caseRow, len(rows))
	for i, r := range rows {
		out[i] = caseRow{line: r.Line, fields: r.Fields}
	}
	return out
}

// readCases reads testdata/cases/name (caseRows, cols fields a row, vars
// replaced) and makes a case of each row with mk, in the file's order.
func readCases[C any](t *testing.T, name string, cols int, vars map[string]string, mk func(caseRow) C) []C {
	t.Helper()
	var out []C
	for _, c := range caseRows(t, name, cols, vars) {
		out = append(out, mk(c))
	}
	return out
}
