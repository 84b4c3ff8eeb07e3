package shellcmd

import (
	"os"
	"os/exec"
	"testing"
)

// zshExtendedGlobShell names, to shellExpansions, zsh with EXTENDED_GLOB
// on, as a setopt on the line or the ~/.zshrc an IDE's zsh -i reads leaves
// it.
const zshExtendedGlobShell = "zsh-extendedglob"

// TestZshExtendedGlobCovered holds the analysis's reading of zsh's
// EXTENDED_GLOB negation "^" to zsh's: every name zsh with the option on
// expands a word holding it to is a name the word can be. Before, it was a
// plain byte, so setopt extendedglob; cat .e^x (approved, as a setopt
// is) read .env under a policy denying it (hostile cases zshextglob/*).
func TestZshExtendedGlobCovered(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("zsh is missing (scripts/zsh.sh installs it): %v", err)
		}
		t.Skipf("zsh is missing (scripts/zsh.sh installs it): %v", err)
	}
	dir := patternDir(t)
	for _, pat := range []string{
		".e^x", ".^a", "GOVERNANCE.m^x", ".e^(x)", ".^e*", ".e^x/", ".env^", "a^b", "?^x", "*^x",
	} {
		checkPatternCovers(t, zshExtendedGlobShell, dir, pat)
	}
}

// TestZshExtendedGlobRead checks the patterns the operators are read as.
func TestZshExtendedGlobRead(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{".e^x", ".e*"},
		{"GOVERNANCE.m^x", "GOVERNANCE.m*"},
		{"sub/a^x/y", "sub/a*/y"},
		{".e[n]^x", ".e[n]*"},
	} {
		got, glob, why := matchPattern(tt.in)
		if got != tt.want || !glob || why != "" {
			t.Errorf("matchPattern(%q) = %q, %v, %q, want %q, true, \"\"", tt.in, got, glob, why, tt.want)
		}
	}
}
