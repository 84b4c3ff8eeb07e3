package shellcmd

import (
	"slices"
	"testing"
)

// TestZshPrecommandModifiers: zsh runs the command after noglob, nocorrect
// and "-" (and repeat N's) as it runs any command, so each is a wrapper
// whose command is decided: at 0e3d9ac "noglob rm x" was asked about as
// the unknown program noglob, where a rule denying rm denies it.
// Its rows are in testdata/cases/zsh_modifiers_lines.txt.
func TestZshPrecommandModifiers(t *testing.T) {
	for _, r := range caseRows(t, "zsh_modifiers_lines.txt", 2) {
		line, want := r.Fields[0], r.Fields[1]
		got := formsOf(Analyze(line, Options{}))
		if !slices.ContainsFunc(got, func(g string) bool { return g == want || hasLastForm(g, want) }) {
			t.Errorf("Analyze(%q) forms = %q; want %q among them", line, got, want)
		}
	}
}

// hasLastForm reports whether the rendered forms g end with want.
func hasLastForm(g, want string) bool {
	return len(g) >= len(want)+4 && g[len(g)-len(want)-4:] == " => "+want
}
