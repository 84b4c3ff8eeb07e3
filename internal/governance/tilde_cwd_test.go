package governance

import (
	"path/filepath"
	"testing"
)

// TestCwdTildeNames checks that a name starting ~+ is decided as the name
// it gives where the command runs (bash's $PWD) and as dash reads it, and
// one starting $PWD or $(pwd) as where the command runs, not asked about as
// one computed at run time: "cat ~+/.env" and "cat \"$PWD/.env\"" read
// .env (testdata/cases/tilde_cwd_lines.txt).
func TestCwdTildeNames(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt", "sub/b.txt"})
	out := tempTree(t, nil, nil)
	checkPolicyLines(t, root, "tilde_cwd_lines.txt", map[string]string{"$SIBLING": filepath.Base(out)},
		"  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n    - Edit(./**)\n"+
			"    - Bash(cat:*)\n    - Bash(cd:*)\n    - Bash(echo:*)\n    - Bash(ls:*)\n    - Bash(cp:*)\n    - Bash(pwd:*)\n")
}
