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
