package accp

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzIsJSONNumber checks isJSONNumber against encoding/json: a string is a
// JSON number lexeme when it is valid JSON, with no white space around it,
// that starts as a number does.
func FuzzIsJSONNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.5", "1.", ".5", "01", "1e5", "1E+5", "1e", "-", "", "1.5e-3", "2x", " 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := json.Valid([]byte(s)) && !strings.ContainsAny(s, " \t\r\n") && len(s) > 0 && (s[0] == '-' || s[0] >= '0' && s[0] <= '9')
		if got := isJSONNumber(s); got != want {
			t.Fatalf("isJSONNumber(%q) = %v, want %v", s, got, want)
		}
	})
}
