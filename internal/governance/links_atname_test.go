package governance

import "testing"

// TestMayTakeDirName reads destinations of a link or copy into a
// directory the line runs in (/ws/src) or beside: only a name that can
// mean nothing but the directory there now keeps the link beneath it alone.
func TestMayTakeDirName(t *testing.T) {
	for _, tt := range []struct {
		dest string
		want bool
	}{
		{"sub", true},
		{"a/b", true},
		{"/ws/other", true},
		{"../other", true},
		{".", false},
		{"..", false},
		{"sub/", false},
		{"sub/.", false},
		{"sub/..", false},
		{"/ws", false},
		{"/ws/src", false},
		{"../src", false},
		{"/", false},
	} {
		if got := mayTakeDirName(tt.dest, "/ws/src"); got != tt.want {
			t.Errorf("mayTakeDirName(%q, /ws/src) = %v, want %v", tt.dest, got, tt.want)
		}
	}
}
