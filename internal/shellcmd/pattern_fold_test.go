package shellcmd

import "testing"

// TestPatternFolded: where names are compared without regard to case, a
// pattern is matched in lower case, and a class's ranges must survive
// that: bash's "[Z-_]" holds "_", which "[z-_]" (its ends lowered) does
// not, so at 1777953 "audit[Z-_]log.jsonl" did not match the name
// audit_log.jsonl folded; and "[!A-_]" lowered is "[^a-z[-_]", which no
// longer holds "b".
func TestPatternFolded(t *testing.T) {
	for _, tt := range []struct {
		pat, name string
		want      bool
	}{
		{"audit[Z-_]log.jsonl", "audit_log.jsonl", true},
		{"audit[A-_]log.jsonl", "audit_log.jsonl", true},
		{"[A-z]", "^", true},
		{"[A-z]", "Q", true},
		{"[A-z]", "q", true},
		{"[!A-Z]", "_", true},
		{"[À-Þ]", "é", true},
		{"[A-Z]", "_", false},
		{"[!A-_]", "b", true},
	} {
		w, ok := patternWord(tt.pat)
		if !ok || w.Kind != Glob {
			t.Fatalf("%q: word %v", tt.pat, w)
		}
		if got := w.Matches(tt.name, true); got != tt.want {
			t.Errorf("%q (%v).Matches(%q, true) = %v; want %v", tt.pat, w, tt.name, got, tt.want)
		}
	}
}
