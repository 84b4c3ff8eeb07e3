package shellcmd

import "testing"

// TestPatternFolded: where names are compared without regard to case, a
// pattern is matched in lower case, and a class's ranges must survive
// that: bash's "[Z-_]" holds "_", which "[z-_]" (its ends lowered) does
// not, so at 1777953 "audit[Z-_]log.jsonl" did not match the name
// audit_log.jsonl folded; and "[!A-_]" lowered is "[^a-z[-_]", which no
// longer holds "b".
// Its rows are in testdata/cases/pattern_folded.txt.
func TestPatternFolded(t *testing.T) {
	for _, r := range caseRows(t, "pattern_folded.txt", 3) {
		pat, name, want := r.Fields[0], r.Fields[1], caseBool(t, r, 2)
		w, ok := patternWord(pat)
		if !ok || w.Kind != Glob {
			t.Fatalf("%q: word %v", pat, w)
		}
		if got := w.Matches(name, true); got != want {
			t.Errorf("%q (%v).Matches(%q, true) = %v; want %v", pat, w, name, got, want)
		}
	}
}
