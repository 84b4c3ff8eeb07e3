package governance

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// resolveLookedSplit walks as resolveLooked does, a pathWalk step an
// element, but keeps the elements still to walk in a list, with a link's
// target split in front of the rest, as resolveLooked was written first:
// the reference its one string (cut an element at a time, a target
// joined before the rest) is held to.
func resolveLookedSplit(raw string, roots ...string) (string, lookup, *pathRefusal) {
	w, rest, done := startWalk(raw, roots)
	if done {
		return w.cur, w.last, nil
	}
	todo := strings.Split(rest, "/")
	for len(todo) > 0 {
		e := todo[0]
		todo = todo[1:]
		target, link, r := w.step(e)
		switch {
		case r != nil:
			return "", w.last, r
		case w.missing != "" && !slices.Contains(todo, ".."):
			return w.beneathMissing(strings.Join(todo, "/"))
		case w.missing != "":
			w.cur, w.missing, w.last = w.missing, "", lookup{missing: true}
		case link:
			todo = append(strings.Split(target, "/"), todo...)
		}
	}
	return w.cur, w.last, nil
}

// FuzzResolveSplitSame checks that resolveLooked walks as
// resolveLookedSplit does, whatever the path and the links it meets: the
// same path, lookup and refusal.
func FuzzResolveSplitSame(f *testing.F) {
	root, forms := lookupWorkspace(f)
	for _, s := range []string{"src/a.go", "src/to-twice", "src/to-dir/", "src/to-dir/x/y", "src/missing/../a.go",
		"src/a.go/x", "src/up/src/a.go", "src/up/up/../src/env", "src/to-a/.", "src/dangle", "src/dangle-rel/x",
		"src/chain1/../x", "src/loop1/x", "src/long0", "src/self", "src/cwd/x", "", ".", "//", "/", "/tmp", "src//a.go//"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tail string) {
		for _, p := range []string{root + "/" + tail, root + tail, tail} {
			for _, roots := range [][]string{forms, nil} {
				res, l, r := resolveLooked(p, roots...)
				want, wantL, wantR := resolveLookedSplit(p, roots...)
				if res != want || !sameLookup(l, wantL) || (r == nil) != (wantR == nil) || r != nil && *r != *wantR {
					t.Fatalf("resolveLooked(%q, %q) = %q, %+v, %v; resolveLookedSplit %q, %+v, %v", p, roots, res, l, r, want, wantL, wantR)
				}
			}
		}
	})
}

// TestResolveSplitSame runs FuzzResolveSplitSame's comparison over a
// workspace's every name, each followed by the tails that make a walk
// step up, go on through a link or stop at a missing element.
func TestResolveSplitSame(t *testing.T) {
	root, forms := lookupWorkspace(t)
	var names []string
	_ = filepath.WalkDir(filepath.Dir(root), func(p string, _ fs.DirEntry, err error) error {
		if err == nil {
			names = append(names, p)
		}
		return nil
	})
	for _, n := range names {
		for _, tail := range []string{"", "/", "/.", "/..", "/x", "/x/..", "/../x", "//y/../z"} {
			p := n + tail
			res, l, r := resolveLooked(p, forms...)
			want, wantL, wantR := resolveLookedSplit(p, forms...)
			if res != want || !sameLookup(l, wantL) || (r == nil) != (wantR == nil) || r != nil && *r != *wantR {
				t.Fatalf("resolveLooked(%q) = %q, %+v, %v; resolveLookedSplit %q, %+v, %v", p, res, l, r, want, wantL, wantR)
			}
		}
	}
	if len(names) < 20 {
		t.Fatalf("walked %d names, want the workspace's", len(names))
	}
}

// sameLookup reports whether two lookups say the same: both missing, or
// both of one file (same inode and type, and the same link count unless a
// directory's: /proc's count follows the processes running, so two
// lookups of it a moment apart differ), or neither known.
func sameLookup(a, b lookup) bool {
	if a.missing != b.missing || (a.fi == nil) != (b.fi == nil) {
		return false
	}
	if a.fi == nil {
		return true
	}
	sa, oka := a.fi.Sys().(*syscall.Stat_t)
	sb, okb := b.fi.Sys().(*syscall.Stat_t)
	return oka && okb && sa.Ino == sb.Ino && sa.Dev == sb.Dev && a.fi.Mode() == b.fi.Mode() &&
		(a.fi.IsDir() || sa.Nlink == sb.Nlink)
}
