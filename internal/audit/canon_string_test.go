package audit

import (
	"fmt"
	"strings"
	"testing"
)

// canonicalStringRef is RFC 8785's string written a rune at a time from
// its definition: '"' and '\\' escaped, control characters by their short
// escape where JSON has one and \u00xx otherwise, every other rune as
// itself; ranging over a string already turns each invalid byte into
// U+FFFD. It is the reference the fast path is held to.
func canonicalStringRef(s string) string {
	short := map[rune]string{'\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case short[r] != "":
			b.WriteString(short[r])
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestPlainRun: plainRun stops at the first byte that is not its own
// canonical form, wherever it is in an eight-byte step.
func TestPlainRun(t *testing.T) {
	for _, stop := range []byte{0, 0x1f, '"', '\\', 0x80, 0xff, '\n', '\t'} {
		for at := range 20 {
			s := strings.Repeat("a~ 0}", 5)[:at] + string(stop) + "abcdefghij"
			if got := plainRun(s); got != at {
				t.Errorf("plainRun(%q) = %d, want %d", s, got, at)
			}
		}
	}
	for _, s := range []string{"", "a", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f", " !#$%&'()*+,-./[]^_`{|}~"} {
		if got := plainRun(s); got != len(s) {
			t.Errorf("plainRun(%q) = %d, want %d", s, got, len(s))
		}
	}
}

// FuzzCanonicalString: appendCanonicalString, which copies plain runs at
// once, writes what the byte-at-a-time encoder writes.
func FuzzCanonicalString(f *testing.F) {
	for _, s := range []string{"", "plain text of some length, with punctuation!", "tab\there \"quoted\" back\\slash",
		"\x00\x01\x1f\x7f\x80\xff", "é漢字🙂 and \xed\xa0\x80 a surrogate", strings.Repeat("abcdefg\n", 9), "12345678\"", "1234567\\",
		"abcdefgh\"bcdefghij\x01klmnopqrs\u00e9tuvwxyz0\\12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := "x" + canonicalStringRef(s)
		if got := appendCanonicalString([]byte("x"), s); string(got) != want {
			t.Fatalf("appendCanonicalString(%q) = %s, want %s", s, got, want)
		}
	})
}
