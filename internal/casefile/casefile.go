// Package casefile reads the case files of the tests: a case a line, its
// fields separated by tabs, so that a table of cases reads as a table and
// not as Go.
package casefile

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Row is one case of a case file: its fields and the line it is on.
type Row struct {
	Line   int
	Fields []string
}

// Read reads the case file at path (Parse).
func Read(path string, cols int, vars map[string]string) ([]Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, cols, vars)
}

// Parse reads data, the case file name: a case a line, its fields
// separated by tabs (a run of tabs is one separator), blank lines and
// lines starting with "#" skipped. A field that starts with '"' is a Go
// string literal, for an empty field or bytes a line cannot hold. Each of
// vars' names ("$ROOT") is replaced in every field by its value. Every
// line must have cols fields, and the file at least one case.
func Parse(name string, data []byte, cols int, vars map[string]string) ([]Row, error) {
	// Longer names first: a replacer tries its pairs in order, and "$OUT"
	// must not take the start of a longer name.
	names := slices.SortedFunc(maps.Keys(vars), func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, k := range names {
		pairs = append(pairs, k, vars[k])
	}
	expand := strings.NewReplacer(pairs...)
	var rows []Row
	for n, text := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.FieldsFunc(text, func(r rune) bool { return r == '\t' })
		if len(fields) != cols {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", name, n+1, len(fields), cols)
		}
		for i, f := range fields {
			if strings.HasPrefix(f, `"`) {
				u, err := strconv.Unquote(f)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: field %d: %w", name, n+1, i+1, err)
				}
				f = u
			}
			fields[i] = expand.Replace(f)
		}
		rows = append(rows, Row{Line: n + 1, Fields: fields})
	}
	if len(rows) == 0 {
		return nil, errors.New(name + ": no cases")
	}
	return rows, nil
}
