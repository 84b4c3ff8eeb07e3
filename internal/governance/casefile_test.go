package governance

import (
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// caseRow is one case of a file under testdata/cases: its fields and the
// line it is on.
type caseRow struct {
	line   int
	fields []string
}

// caseRows reads testdata/cases/name: a case a line, its fields separated
// by tabs (a run of tabs is one separator), blank lines and lines starting
// with "#" skipped. A field that starts with '"' is a Go string literal,
// for an empty field or bytes a line cannot hold. Each of vars' names
// ("$ROOT") is replaced in every field by its value. Every line must have
// cols fields.
func caseRows(t *testing.T, name string, cols int, vars map[string]string) []caseRow {
	t.Helper()
	data, err := os.ReadFile("testdata/cases/" + name)
	if err != nil {
		t.Fatal(err)
	}
	// Longer names first: a replacer tries its pairs in order, and "$OUT"
	// must not take the start of a longer name.
	names := slices.SortedFunc(maps.Keys(vars), func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, k := range names {
		pairs = append(pairs, k, vars[k])
	}
	expand := strings.NewReplacer(pairs...)
	var rows []caseRow
	for n, text := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.FieldsFunc(text, func(r rune) bool { return r == '\t' })
		if len(fields) != cols {
			t.Fatalf("%s:%d: %d fields, want %d", name, n+1, len(fields), cols)
		}
		for i, f := range fields {
			if strings.HasPrefix(f, `"`) {
				if f, err = strconv.Unquote(f); err != nil {
					t.Fatalf("%s:%d: field %d: %v", name, n+1, i+1, err)
				}
			}
			fields[i] = expand.Replace(f)
		}
		rows = append(rows, caseRow{line: n + 1, fields: fields})
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return rows
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
