package terminaltest

import (
	"fmt"
	"testing"
)

func TestActsOn(t *testing.T) {
	const acted = "\n\t\r\x00\x1b\x7f\u0085\u009b\u200b\u200e\u202e\u2066\ufeff\u2028\u2029" +
		"\u034f\u115f\u1160\u17b4\u180b\u3164\ufe00\ufe0f\uffa0\U000e0100" // print as nothing
	const printed = "a Z0 ~é\u00a0\u4e16\U0001d11e"
	for _, r := range acted {
		if !ActsOn(r) {
			t.Errorf("ActsOn(%U) = false, want true", r)
		}
	}
	for _, r := range printed {
		if ActsOn(r) {
			t.Errorf("ActsOn(%U) = true, want false", r)
		}
	}
}

// recorder is a testing.TB that keeps what CheckPrintable reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCheckPrintable: how many errors CheckPrintable reports for what a
// view printed, with FORGED as the forged text.
func TestCheckPrintable(t *testing.T) {
	for out, want := range map[string]int{
		"TIME  ACTOR\nrow one\n": 0,
		"row FORGED\n":           0, // the forged text inside a row
		"row \x1b[2J\n":          1,
		"row \u202e\n":           1,
		"row 1\ufe0f\n":          1,
		"row\r\n":                1,
		"row\n  FORGED row\n":    1,
		"\x1b\nFORGED\n":         2,
	} {
		r := &recorder{TB: t}
		CheckPrintable(r, "view", out, "FORGED")
		if len(r.errs) != want {
			t.Errorf("CheckPrintable(%q): %d errors %q, want %d", out, len(r.errs), r.errs, want)
		}
	}
}
