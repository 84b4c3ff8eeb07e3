package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPythonModuleExtracts checks that python's tarfile and zipfile
// modules run with -e are decided by the member names of the archive they
// extract, as tar -x and unzip are: a gzip tar or a zip holding the policy
// is refused however the interpreter is named and its options given, one
// holding plain files is allowed, and an archive not there when the
// request is decided (one the agent's own tool may write before the line
// runs) has names that are not known.
func TestPythonModuleExtracts(t *testing.T) {
	root := tempTree(t, []string{"sub"}, nil)
	for name, data := range map[string][]byte{
		"evil.tgz": gzipBytes(t, tarBytes(t, "", "GOVERNANCE.md")),
		"ok.tgz":   gzipBytes(t, tarBytes(t, "", "sub/a.txt")),
		"evil.zip": zipBytes(t, "GOVERNANCE.md", nil),
		"ok.zip":   zipBytes(t, "sub/b.txt", nil),
	} {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := rootPolicyEngine(t, root, "  default: ask\n  allow:\n    - Edit(./**)\n    - Bash(python3:*)\n    - Bash(python:*)\n    - Bash(python3.12:*)\n    - Bash(tar:*)\n")
	checkCommandLines(t, e, root, "python_module_lines.txt", nil)
}
