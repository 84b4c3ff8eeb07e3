package governance

import (
	"path/filepath"
	"testing"
)

// TestZshExtendedGlobLines decides lines whose "#" and "~" zsh's
// EXTENDED_GLOB reads as pattern operators (zsh_extendedglob_lines.txt).
// Before, bash's reading alone was decided: setopt extendedglob; cat .envX#,
// approved for its setopt, read .env under a rule refusing it (hostile
// cases zshextglob/repeat-*).
func TestZshExtendedGlobLines(t *testing.T) {
	root := tempTree(t, nil, []string{".env", "a.txt"})
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Read(**/.env)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: SelfProtected(p, nil)})
	checkCommandLines(t, e, root, "zsh_extendedglob_lines.txt", nil)
}
