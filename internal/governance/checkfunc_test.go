package governance

import "testing"

// checkFunc calls f, named name in messages, on each input of cases and
// checks that it returns the result cases holds for that input.
func checkFunc[R comparable](t *testing.T, name string, f func(string) R, cases map[string]R) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%q) = %#v; want %#v", name, in, got, want)
		}
	}
}

// checkFuncCases calls f, named name in messages, on the input of each row
// of testdata/cases/file (IN<TAB>OUT) and checks that it returns the
// row's result.
func checkFuncCases(t *testing.T, name string, f func(string) string, file string) {
	t.Helper()
	for _, c := range caseRows(t, file, 2, nil) {
		if got := f(c.fields[0]); got != c.fields[1] {
			t.Errorf("%s:%d: %s(%q) = %q; want %q", file, c.line, name, c.fields[0], got, c.fields[1])
		}
	}
}
