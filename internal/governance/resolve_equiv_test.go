package governance

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// resolveLookedSplit is resolveLooked as it was written first, with the
// path split into a list of elements and a link's target split in front
// of the rest: the reference the walk over one string is held to.
func resolveLookedSplit(raw string, roots ...string) (string, lookup, *pathRefusal) {
	var last lookup
	cur, rest := "/", raw
	for _, r := range roots {
		if r == "/" || r != resolvedRoot(r) {
			continue
		}
		if raw == r {
			return r, last, nil
		}
		if tail, ok := strings.CutPrefix(raw, r+"/"); ok {
			cur, rest = r, tail
			break
		}
	}
	todo := strings.Split(rest, "/")
	links := 0
	for len(todo) > 0 {
		e := todo[0]
		todo = todo[1:]
		switch e {
		case "", ".":
			continue
		case "..":
			cur, last = filepath.Dir(cur), lookup{}
			continue
		}
		next := cur + "/" + e
		if cur == "/" {
			next = "/" + e
		}
		if isMagicPath(next) {
			return "", last, magicRefusal(next)
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			// Nothing below a missing element can be a link.
			out := filepath.Clean(next + "/" + strings.Join(todo, "/"))
			if isMagicPath(out) {
				return "", last, magicRefusal(out)
			}
			// out is next or beneath it (no ".." climbed back out), so
			// its lookup fails as next's did.
			last = lookup{missing: out == next || strings.HasPrefix(out, next+"/")}
			return out, last, nil
		case err != nil:
			return "", last, refuse("unresolvable-path", "%s cannot be looked up (%v), so where the path leads is unknown", next, unwrapPathError(err))
		case fi.Mode()&fs.ModeSymlink == 0:
			cur, last = next, lookup{fi: fi}
			continue
		}
		last = lookup{}
		links++
		if links > maxLinks {
			return "", last, refuse("unresolvable-path", "the path follows more than %d symlinks (a loop?)", maxLinks)
		}
		if onProcfs(cur) {
			return "", last, magicRefusal(next)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", last, refuse("unresolvable-path", "the link %s cannot be read (%v)", next, unwrapPathError(err))
		}
		if strings.HasPrefix(target, "/") {
			cur = "/"
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	return cur, last, nil
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
// both of one file (same inode, type and link count), or neither known.
func sameLookup(a, b lookup) bool {
	if a.missing != b.missing || (a.fi == nil) != (b.fi == nil) {
		return false
	}
	if a.fi == nil {
		return true
	}
	sa, oka := a.fi.Sys().(*syscall.Stat_t)
	sb, okb := b.fi.Sys().(*syscall.Stat_t)
	return oka && okb && sa.Ino == sb.Ino && sa.Dev == sb.Dev && sa.Nlink == sb.Nlink && a.fi.Mode() == b.fi.Mode()
}
