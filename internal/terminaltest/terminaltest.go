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

// ActsOn reports whether a terminal acts on r instead of printing it: a
// control character (newline and tab included), a format character (the
// bidirectional overrides among them) or a line or paragraph separator.
func ActsOn(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
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
