package shellcmd

import (
	"slices"
	"testing"
)

// TestZshPrecommandModifiers: zsh runs the command after noglob, nocorrect
// and "-" (and repeat N's) as it runs any command, so each is a wrapper
// whose command is decided: at 0e3d9ac "noglob rm x" was asked about as
// the unknown program noglob, where a rule denying rm denies it.
func TestZshPrecommandModifiers(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"noglob rm x", "rm x"},
		{"nocorrect rm -rf x", "rm -rf x"},
		{"- rm x", "rm x"},
		{"repeat 3 rm x", "rm x"},
		{"noglob nocorrect - rm x", "rm x"},
		{"repeat $n rm x", "rm x"},
	} {
		got := formsOf(Analyze(tt.line, Options{}))
		if !slices.ContainsFunc(got, func(g string) bool { return g == tt.want || hasLastForm(g, tt.want) }) {
			t.Errorf("Analyze(%q) forms = %q; want %q among them", tt.line, got, tt.want)
		}
	}
}

// hasLastForm reports whether the rendered forms g end with want.
func hasLastForm(g, want string) bool {
	return len(g) >= len(want)+4 && g[len(g)-len(want)-4:] == " => "+want
}
