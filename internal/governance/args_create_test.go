package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNamesACommandMayCreate checks that a name leading to nothing in a
// directory that exists (a dangling link included) is decided as a write:
// the command may create it (sort -o, touch, --output=), and which
// commands do is not in the line. Outside the workspace that is denied
// whoever approves; a name that exists is still decided as a read.
func TestNamesACommandMayCreate(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt"})
	out := tempTree(t, nil, []string{"there.txt"})
	if err := os.Symlink(filepath.Join(out, "new.txt"), filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	checkPolicyLines(t, root, "may_create_lines.txt", map[string]string{"$ROOT": root, "$OUT": out, "$SIBLING": filepath.Base(out)},
		"  default: ask\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n    - Edit(./sub/**)\n  allow:\n    - Read\n    - Edit(./**)\n"+
			"    - Bash(sort:*)\n    - Bash(touch:*)\n    - Bash(cat:*)\n    - Bash(grep:*)\n")
}
