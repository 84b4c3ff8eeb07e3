package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// caseTree makes a temporary directory holding the tree of
// testdata/cases/name, PATH<TAB>KIND<TAB>TEXT rows: a directory (KIND
// dir, TEXT ""), a file (KIND file) or an executable (KIND exec) holding
// TEXT, or a symbolic link to TEXT (KIND link), its parents made as
// needed. It returns the directory.
func caseTree(t *testing.T, name string) string {
	t.Helper()
	root := t.TempDir()
	for _, r := range caseRows(t, name, 3, nil) {
		path, kind, text := filepath.Join(root, r.fields[0]), r.fields[1], r.fields[2]
		perm := os.FileMode(0o644)
		switch kind {
		case "dir":
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		case "exec":
			perm = 0o755
		case "file", "link":
		default:
			t.Fatalf("%s:%d: kind %q, want dir, file, exec or link", name, r.line, kind)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if kind == "link" {
			if err := os.Symlink(text, path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(text), perm); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// checkTreeLines makes the workspace of testdata/cases/tree (caseTree)
// and an engine over it whose policy holds rules (rootPolicyEngine), and
// decides each line of testdata/cases/lines there (checkCommandLines,
// $ROOT the workspace). It returns the engine and the workspace, for the
// test's own checks.
func checkTreeLines(t *testing.T, tree, rules, lines string) (*Engine, string) {
	t.Helper()
	root := caseTree(t, tree)
	e := rootPolicyEngine(t, root, rules)
	checkCommandLines(t, e, root, lines, map[string]string{"$ROOT": root})
	return e, root
}
