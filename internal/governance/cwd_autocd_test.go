package governance

import (
	"path/filepath"
	"testing"
)

// TestDecideAfterAutoCd: with bash's autocd (shopt -s autocd, in effect in
// the interactive shell an IDE types a line into) or zsh's AUTO_CD, a
// command whose name is a directory is a cd there: "shopt -s autocd; ..;
// touch x" writes x beside the workspace. A line that sets autocd, and a
// command word that can only name a directory ("..", ".", "~", "dir/",
// "sub/../.."), make what follows it asked about, as an unknown cd does;
// a program run by path ("./run.sh") does not.
func TestDecideAfterAutoCd(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	tree{dirs: []string{"ws/sub"}, files: []string{"ws/a.txt", "ws/run.sh"}}.make(t, dir)
	checkPolicyLines(t, ws, "autocd_lines.txt", nil,
		"  default: allow\n  allow:\n    - Read\n    - Edit(./**)\n    - Bash\n")
}
