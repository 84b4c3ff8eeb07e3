package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptsReadWhole reads a script file the line runs whole for the
// protected names it holds: a name past 256 KiB of padding, one spanning
// the bridge's read blocks, after a NUL byte (bash runs the lines before
// and after it), a sed or awk script file of any size; a file larger than
// the bridge reads refuses the line. Padding that makes the name part of
// another one (notes.GOVERNANCE.md) still names nothing.
func TestScriptsReadWhole(t *testing.T) {
	root := tempTree(t, nil, nil)
	pad := func(n int, b string) string { return strings.Repeat(b, n) }
	edge := scanBlock - 5 // the name spans the first two blocks
	files := map[string]string{
		"big.sh":    pad(300<<10, "#") + "\n: > GOVERNANCE.md\n",
		"edge.sh":   pad(edge, "#") + "\n: > GOVERNANCE.md\n",
		"glued.sh":  pad(edge-2, "#") + "\nxxxxxxxxGOVERNANCE.md\n",
		"dotted.sh": pad(edge-10, "#") + "\nnotes.aaaaaaaaaaaaaaaaaaaaaaa.GOVERNANCE.md\n",
		"quoted.sh": pad(edge, "#") + "\n: > GOV''ER\"\"NANCE.md\n",
		"nul.sh":    ": > GOVERNANCE.md\n\x00\n",
		"big.sed":   pad(300<<10, "#") + "\n1e : > GOVERNANCE.md\n",
		"ok.sh":     pad(300<<10, "#") + "\necho hi\n",
	}
	writeFiles(t, root, files, 0o755)
	// A file larger than the bridge reads (sparse: nothing to write).
	f, err := os.Create(filepath.Join(root, "huge.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxScanBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n")
	ask := RequireApproval // bash and sed running a file: no rule vouches for it
	checkCommandRows(t, e, root, []commandRow{
		{"bash big.sh", Deny},
		{"bash edge.sh", Deny},
		{"bash glued.sh", Deny},
		{"bash quoted.sh", Deny},
		{"bash nul.sh", Deny},
		{"sed -f big.sed a.txt", Deny},
		{"bash huge.sh", Deny},
		{"bash dotted.sh", ask},
		{"bash ok.sh", ask},
	})
}
