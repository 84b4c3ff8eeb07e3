// Package terminaltest is the tests' one definition of what text may not
// carry to a terminal: the audit views, the audit command and the audit
// browser are checked against it, rather than against the escaping they
// test.
package terminaltest

import (
	"strings"
	"testing"
	"unicode"
)

// ActsOn reports whether a terminal acts on r instead of printing it, or
// prints it as nothing: a control character (newline and tab included), a
// format character (the bidirectional overrides among them), a line or
// paragraph separator, or another default-ignorable code point (variation
// selectors, Hangul fillers, the combining grapheme joiner), by which two
// different ids would read as one.
func ActsOn(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' ||
		unicode.In(r, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// CheckPrintable fails t when out, what a command or view named what
// printed, holds a character a terminal acts on other than the newlines
// ending its lines, or a line that starts (after blanks) with forged: the
// text an agent's string used to forge a row of its own.
func CheckPrintable(t testing.TB, what, out, forged string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && ActsOn(r) {
			t.Errorf("%s printed %U:\n%s", what, r, out)
			break
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), forged) {
			t.Errorf("%s printed a forged row: %q", what, l)
		}
	}
}
