package manifest

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a manifest, at the position of the YAML node it
// concerns.
type Error struct {
	// File is the manifest's name as given to Parse or Load.
	File string `json:"file"`
	// Line and Column are 1-based positions in File; 0 when the problem has
	// no position (the file could not be read).
	Line   int `json:"line"`
	Column int `json:"column"`
	// Field is the dotted path of the field concerned, such as
	// "metadata.aip44.tier" or "transport[1]"; empty for problems with the
	// file as a whole.
	Field string `json:"field,omitempty"`
	// Msg says what is wrong.
	Msg string `json:"message"`
}

// Error formats e as "file:line:col: field: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is every problem found in one or more manifests, in file and
// position order once sorted. Parse and Load return one as their error so a
// user sees all problems at once, as go/scanner.ErrorList does.
type ErrorList []*Error

// Error returns the first problem and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l as an error, or nil if l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Sort orders l by file, line, column and field.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Field < b.Field
	})
}

// add appends a problem; a duplicate of one already listed is dropped.
func (l *ErrorList) add(e *Error) {
	for _, x := range *l {
		if *x == *e {
			return
		}
	}
	*l = append(*l, e)
}
