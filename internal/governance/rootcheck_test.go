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
// Steps whose parent is missing, not a directory or reached through a
// link are skipped, so nothing is made outside dir. It returns every path
// of the tree, made or not, dir first.
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
		if !realDirsTo(dir, filepath.Dir(p)) {
			continue
		}
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

// realDirsTo reports whether every directory from dir down to d (d
// beneath dir, or dir itself) is a directory, not a link to one.
func realDirsTo(dir, d string) bool {
	for ; len(d) > len(dir); d = filepath.Dir(d) {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			return false
		}
	}
	return d == dir
}

// checkPlain holds the one-lookup shortcuts to the walk on every path of
// a tree, clean or not, with and without roots: rootIsPlain says what
// resolveDir's walk says (the root resolves to itself), and resolveLooked
// answers what resolveWalk does: the same path or refusal, and the same
// file when it says which.
func checkPlain(t *testing.T, dir string, paths []string) {
	t.Helper()
	var all []string
	for _, p := range paths {
		all = append(all, p, p+"/", p+"/.", p+"/..", p+"//x", p+"/../a/x")
	}
	for _, p := range paths {
		if got, want := rootIsPlain(p), resolveDir(p) == p; got != want {
			t.Errorf("rootIsPlain(%s) = %v, the walk resolves it to %q", p, got, resolveDir(p))
		}
	}
	for _, roots := range [][]string{nil, {dir}, {filepath.Join(dir, "a")}, {filepath.Join(dir, "a", "b"), dir}} {
		for _, p := range all {
			res, last, r := resolveLooked(p, roots...)
			wres, wlast, wr := resolveWalk(p, roots...)
			if res != wres || (r == nil) != (wr == nil) || r != nil && *r != *wr {
				t.Errorf("resolveLooked(%s, %q) = %q, %v; the walk: %q, %v", p, roots, res, r, wres, wr)
				continue
			}
			if last.missing != wlast.missing || (last.fi == nil) != (wlast.fi == nil) ||
				last.fi != nil && (!os.SameFile(last.fi, wlast.fi) || last.fi.Mode() != wlast.fi.Mode()) {
				t.Errorf("resolveLooked(%s, %q) looked up %+v; the walk %+v", p, roots, last, wlast)
			}
		}
	}
}

// TestResolvePlain holds the shortcuts to the walk on trees with
// directories, files and every kind of link, and on a root swapped
// between a directory and a link back and forth.
func TestResolvePlain(t *testing.T) {
	for name, ops := range map[string][]byte{
		"directories":         {0, 0, 1, 0, 2, 0, 13, 1, 14, 1},
		"link to a directory": {0, 0, 1, 0 | 3<<3, 2, 3 | 1<<3, 14, 0},
		"relative link":       {0, 0, 1, 4 | 1<<3, 13, 4 | 13<<3},
		"self and parent":     {0, 0, 1, 5, 2, 6, 3, 7},
		"file in the way":     {0, 2, 1, 0, 2, 0},
		"missing":             {},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			checkPlain(t, dir, rootTree(dir, ops))
		})
	}
	t.Run("swapped", func(t *testing.T) {
		dir := t.TempDir()
		root, out := filepath.Join(dir, "root"), filepath.Join(dir, "out")
		for _, d := range []string{root, out, filepath.Join(out, "sub")} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		inside := filepath.Join(root, "sub")
		for i := 0; i < 3; i++ {
			checkPlain(t, root, []string{root, inside})
			if !rootIsPlain(root) {
				t.Fatalf("round %d: a plain directory is not taken as one", i)
			}
			if err := os.Rename(root, root+".d"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(out, root); err != nil {
				t.Fatal(err)
			}
			checkPlain(t, root, []string{root, inside})
			if res, _, _ := resolveLooked(inside, root); res != filepath.Join(out, "sub") {
				t.Fatalf("round %d: %s beneath a root swapped for a link resolves to %q", i, inside, res)
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
		checkPlain(t, "/", []string{"/proc/self", "/proc/self/cwd", "/dev/fd", "/dev/null", "/proc", "/", "/tmp/../tmp", "relative"})
	})
}

// FuzzResolvePlain is TestResolvePlain on trees the fuzzer makes.
func FuzzResolvePlain(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 0, 13, 1, 14, 1})
	f.Add([]byte{0, 0, 1, 0 | 3<<3, 2, 3 | 1<<3, 14, 0})
	f.Add([]byte{0, 0, 1, 4 | 1<<3, 13, 4 | 13<<3, 2, 5, 3, 6, 4, 7})
	f.Fuzz(func(t *testing.T, ops []byte) {
		dir := t.TempDir()
		checkPlain(t, dir, rootTree(dir, ops))
	})
}

// FuzzCleanAbsolute holds cleanAbsolute to filepath.Clean.
func FuzzCleanAbsolute(f *testing.F) {
	for _, p := range []string{"/", "//", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/.", "/..", "/a/.b", "/a/..b", "/...", "a", "", "/a/b/c.go", "./a"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := cleanAbsolute(p), filepath.IsAbs(p) && filepath.Clean(p) == p; got != want {
			t.Errorf("cleanAbsolute(%q) = %v, want %v", p, got, want)
		}
	})
}
