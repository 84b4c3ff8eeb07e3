package shellcmd

import "testing"

// TestGlobstarLastElement: to bash with globstar and to zsh, a last path
// element ** is every name beneath at any depth, which no one pattern of
// one element covers, so the word is known only when the line runs; a **
// inside an element, or quoted, is an ordinary * or text. Before, sub/**
// was the glob sub/*, one level: cat sub/** was allowed and read
// sub/dir/.env under bash -O globstar.
func TestGlobstarLastElement(t *testing.T) {
	for _, tc := range []struct {
		pat     string
		unknown bool
	}{
		{"sub/**", true},
		{"**", true},
		{"a/***", true},
		{"**/x", true},
		{"a**", false},
		{"sub/**x", false},
		{`sub/\*\*`, false},
		{"sub/*", false},
	} {
		if _, _, why := matchPattern(tc.pat); (why != "") != tc.unknown {
			t.Errorf("matchPattern(%q): why %q, want unknown %v", tc.pat, why, tc.unknown)
		}
	}
}
