package shellcmd

import (
	"slices"
	"testing"
)

// TestCaseToggleReadings checks the readings of bash's ${x~} and ${x~~}:
// each toggle written as the operators that lower and raise the case.
func TestCaseToggleReadings(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{"w=RM; ${w~~} x", []string{"w=RM; ${w,,} x", "w=RM; ${w^^} x"}},
		{"${w~} ${a[1]~~x}", []string{"${w,} ${a[1],,x}", "${w^} ${a[1]^^x}"}},
		{"echo ${~x} ~/a", nil},
	} {
		if got := caseToggleReadings(tt.src); !slices.Equal(got, tt.want) {
			t.Errorf("caseToggleReadings(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
	// The reading's commands are the line's: bash runs rm x.
	if !slices.ContainsFunc(Analyze("w=RM; ${w~~} x", Options{}).Commands, func(c *Command) bool {
		return slices.ContainsFunc(c.Forms, func(f []Word) bool { return f[0].Text == "rm" })
	}) {
		t.Error(`w=RM; ${w~~} x: rm is not among its commands`)
	}
}
