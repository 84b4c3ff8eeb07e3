package terminaltest

import (
	"fmt"
	"testing"
)

func TestActsOn(t *testing.T) {
	for _, tt := range []struct {
		r    rune
		want bool
	}{
		{'a', false}, {' ', false}, {'é', false}, {'\u00a0', false}, {'\u4e16', false},
		{'\n', true}, {'\t', true}, {'\x1b', true}, {'\x7f', true}, {'\u0085', true},
		{'\u200b', true}, {'\u202e', true}, {'\u2066', true}, {'\ufeff', true},
		{'\u2028', true}, {'\u2029', true},
	} {
		if got := ActsOn(tt.r); got != tt.want {
			t.Errorf("ActsOn(%U) = %v, want %v", tt.r, got, tt.want)
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

func TestCheckPrintable(t *testing.T) {
	for _, tt := range []struct {
		name, out string
		errs      int
	}{
		{"plain lines", "TIME  ACTOR\nrow one\n", 0},
		{"forged text inside a row", "row FORGED\n", 0},
		{"escape", "row \x1b[2J\n", 1},
		{"bidi override", "row \u202e\n", 1},
		{"carriage return", "row\r\n", 1},
		{"forged row", "row\n  FORGED row\n", 1},
		{"escape and forged row", "\x1b\nFORGED\n", 2},
	} {
		r := &recorder{TB: t}
		CheckPrintable(r, tt.name, tt.out, "FORGED")
		if len(r.errs) != tt.errs {
			t.Errorf("%s: %d errors %q, want %d", tt.name, len(r.errs), r.errs, tt.errs)
		}
	}
}
