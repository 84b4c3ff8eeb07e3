package audit

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// appendCanonicalStringRef is appendCanonicalString a byte at a time,
// without plainRun: the reference the fast path is held to.
func appendCanonicalStringRef(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c >= 0x20:
				dst = append(dst, c)
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, "\uFFFD"...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
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
		"\x00\x01\x1f\x7f\x80\xff", "é漢字🙂 and \xed\xa0\x80 a surrogate", strings.Repeat("abcdefg\n", 9), "12345678\"", "1234567\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := appendCanonicalStringRef([]byte("x"), s)
		if got := appendCanonicalString([]byte("x"), s); string(got) != string(want) {
			t.Fatalf("appendCanonicalString(%q) = %s, want %s", s, got, want)
		}
	})
}
