package shellcmd

import "testing"

// TestGlobstarLastElement: to bash with globstar and to zsh, a last path
// element ** is every name beneath at any depth, which no one pattern of
// one element covers, so the word is known only when the line runs; a **
// inside an element, or quoted, is an ordinary * or text. Before, sub/**
// was the glob sub/*, one level: cat sub/** was allowed and read
// sub/dir/.env under bash -O globstar.
// Its rows are in testdata/cases/globstar_patterns.txt.
func TestGlobstarLastElement(t *testing.T) {
	for _, r := range caseRows(t, "globstar_patterns.txt", 2) {
		pat, unknown := r.Fields[0], caseBool(t, r, 1)
		if _, _, why := matchPattern(pat); (why != "") != unknown {
			t.Errorf("matchPattern(%q): why %q, want unknown %v", pat, why, unknown)
		}
	}
}
