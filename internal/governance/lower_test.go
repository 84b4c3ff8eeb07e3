package governance

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLowerIdempotent: lowering a path already in lower case changes
// nothing, for every rune (strings.ToLower maps rune by rune, and bytes
// that are not UTF-8 to U+FFFD), so a comparison of lowered paths may
// skip lowering them again (linkedProtected calls rotatedSiblingLower on
// lowered forms).
func TestLowerIdempotent(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		s := string(r)
		if l := strings.ToLower(s); strings.ToLower(l) != l {
			t.Fatalf("%U: ToLower gives %q, and again %q", r, l, strings.ToLower(l))
		}
	}
	for _, s := range []string{"/W/\xff/A", "\xc3", "/a/\u0130/\u212a"} {
		if l := strings.ToLower(s); strings.ToLower(l) != l {
			t.Fatalf("%q: ToLower gives %q, and again %q", s, l, strings.ToLower(l))
		}
	}
}
