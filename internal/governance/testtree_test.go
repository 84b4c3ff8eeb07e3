package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// tree is a file tree a test decides against. Names are relative to the
// directory make is given; a link's target is written as it stands
// (relative to the link, or absolute).
type tree struct {
	dirs      []string          // directories, with their parents
	files     []string          // files holding "x", with their parents
	texts     map[string]string // files holding the text given, with their parents
	links     map[string]string // symbolic links: name -> target
	hardLinks map[string]string // second names: name -> an existing file
}

// make creates the tree beneath root: the directories, then the files,
// then the links.
func (tr tree) make(t testing.TB, root string) {
	t.Helper()
	for _, d := range tr.dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range tr.files {
		writeFile(t, filepath.Join(root, f), "x")
	}
	for f, text := range tr.texts {
		writeFile(t, filepath.Join(root, f), text)
	}
	for name, target := range tr.links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	for name, file := range tr.hardLinks {
		if err := os.Link(filepath.Join(root, file), filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// tempWorkspace returns a temporary directory and the path of ws beneath
// it, the workspace root of a tree the test makes there (ws/...) beside
// places outside the workspace.
func tempWorkspace(t testing.TB) (tmp, root string) {
	t.Helper()
	tmp = t.TempDir()
	return tmp, filepath.Join(tmp, "ws")
}

// writeFile writes text to path, creating its parent directories.
func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
