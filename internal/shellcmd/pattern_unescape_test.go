package shellcmd

import "testing"

// TestUnescape checks that Unescape drops the backslashes that quote a
// pattern's bytes and nothing else.
func TestUnescape(t *testing.T) {
	for _, tt := range []struct {
		name, pattern, want string
	}{
		{"no backslash", "src/*.go", "src/*.go"},
		{"quoted star", `a\*b`, "a*b"},
		{"quoted bracket", `b/\[odd].txt`, "b/[odd].txt"},
		{"quoted backslash", `a\\b`, `a\b`},
		{"trailing backslash kept", `a\`, `a\`},
		{"empty", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unescape(tt.pattern); got != tt.want {
				t.Errorf("Unescape(%q) = %q; want %q", tt.pattern, got, tt.want)
			}
		})
	}
}
