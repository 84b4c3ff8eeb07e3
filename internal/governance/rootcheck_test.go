package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// rootTreeNames are the names a rootTree is made of, at every depth.
var rootTreeNames = [...]string{"a", "b", "c"}

// rootTree builds, under dir, what ops says, two bytes a step: a path
// (up to three levels of rootTreeNames) and what to make there: a
// directory, a file, or a symlink (to another path of the tree, absolute
// or relative, to itself, to its parent, or to a per-process place).
// Steps whose parent is missing or not a directory fail and are skipped.
// It returns every path of the tree, made or not, dir first.
func rootTree(dir string, ops []byte) []string {
	paths := []string{dir}
	for _, a := range rootTreeNames {
		paths = append(paths, filepath.Join(dir, a))
		for _, b := range rootTreeNames {
			paths = append(paths, filepath.Join(dir, a, b))
			for _, c := range rootTreeNames {
				paths = append(paths, filepath.Join(dir, a, b, c))
			}
		}
	}
	for i := 0; i+1 < len(ops) && i < 80; i += 2 {
		p := paths[1+int(ops[i])%(len(paths)-1)]
		other := paths[int(ops[i+1]>>3)%len(paths)]
		switch ops[i+1] % 8 {
		case 0, 1:
			_ = os.Mkdir(p, 0o755)
		case 2:
			_ = os.WriteFile(p, nil, 0o644)
		case 3:
			_ = os.Symlink(other, p)
		case 4:
			if rel, err := filepath.Rel(filepath.Dir(p), other); err == nil {
				_ = os.Symlink(rel, p)
			}
		case 5:
			_ = os.Symlink(filepath.Base(p), p)
		case 6:
			_ = os.Symlink("..", p)
		case 7:
			_ = os.Symlink("/proc/self/cwd", p)
		}
	}
	return paths
}

// checkRecheckRoot holds recheckRoot to refreshRoot on every path of a
// tree: the form kept for resolvedRoot is the one resolveDir's walk finds.
func checkRecheckRoot(t *testing.T, paths []string) {
	t.Helper()
	for _, p := range paths {
		want := resolveDir(p)
		recheckRoot(p)
		got, _ := resolvedRoots.Load(p)
		if got != want {
			t.Errorf("recheckRoot(%s) kept %q, the walk resolves it to %q", p, got, want)
		}
		if plainRoot(p) && want != p {
			t.Errorf("plainRoot(%s) is true, but the walk resolves it to %q", p, want)
		}
	}
}

// TestRecheckRoot holds the one-lookup recheck to the walk on trees with
// directories, files and every kind of link, and on a root swapped between
// a directory and links back and forth.
func TestRecheckRoot(t *testing.T) {
	for name, ops := range map[string][]byte{
		"directories":         {0, 0, 1, 0, 2, 0, 13, 1, 14, 1},
		"link to a directory": {0, 0, 1, 0 | 3<<3, 2, 3 | 1<<3, 14, 0},
		"relative link":       {0, 0, 1, 4 | 1<<3, 13, 4 | 13<<3},
		"self and parent":     {0, 0, 1, 5, 2, 6, 3, 7},
		"file in the way":     {0, 2, 1, 0, 2, 0},
		"missing":             {},
	} {
		t.Run(name, func(t *testing.T) {
			checkRecheckRoot(t, rootTree(t.TempDir(), ops))
		})
	}
	t.Run("swapped", func(t *testing.T) {
		dir := t.TempDir()
		root, out := filepath.Join(dir, "root"), filepath.Join(dir, "out")
		for _, d := range []string{root, out} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 3; i++ {
			checkRecheckRoot(t, []string{root})
			if v, _ := resolvedRoots.Load(root); v != root {
				t.Fatalf("round %d: a plain directory is kept as %q", i, v)
			}
			if err := os.Rename(root, root+".d"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(out, root); err != nil {
				t.Fatal(err)
			}
			checkRecheckRoot(t, []string{root})
			if v, _ := resolvedRoots.Load(root); v != out {
				t.Fatalf("round %d: a link to %s is kept as %q", i, out, v)
			}
			if err := os.Remove(root); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(root+".d", root); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Run("per-process", func(t *testing.T) {
		checkRecheckRoot(t, []string{"/proc/self", "/proc/self/cwd", "/dev/fd", "/proc", "/", "/tmp/../tmp", "relative"})
	})
}

// FuzzRecheckRoot is TestRecheckRoot on trees the fuzzer makes.
func FuzzRecheckRoot(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 0, 13, 1, 14, 1})
	f.Add([]byte{0, 0, 1, 0 | 3<<3, 2, 3 | 1<<3, 14, 0})
	f.Add([]byte{0, 0, 1, 4 | 1<<3, 13, 4 | 13<<3, 2, 5, 3, 6, 4, 7})
	f.Fuzz(func(t *testing.T, ops []byte) {
		checkRecheckRoot(t, rootTree(t.TempDir(), ops))
	})
}
