package governance

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// lookupWorkspace is pathWorkspace with files to end a walk on: a plain
// file, a file with a second name, a named pipe and a directory, and links
// to each.
func lookupWorkspace(t testing.TB) (root string, forms []string) {
	t.Helper()
	root, _ = pathWorkspace(t)
	for _, step := range []func() error{
		func() error { return os.WriteFile(root+"/src/a.go", []byte("x"), 0o644) },
		func() error { return os.WriteFile(root+"/src/twice.go", []byte("x"), 0o644) },
		func() error { return os.Link(root+"/src/twice.go", root+"/secrets/other-name.go") },
		func() error { return syscall.Mkfifo(root+"/src/fifo", 0o644) },
		func() error { return os.Mkdir(root+"/src/dir", 0o755) },
		func() error { return os.Symlink("a.go", root+"/src/to-a") },
		func() error { return os.Symlink("dir", root+"/src/to-dir") },
		func() error { return os.Symlink("twice.go", root+"/src/to-twice") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	return root, rootForms([]string{root})
}

// FuzzResolveLookup: what resolveLooked says it saw of the path it
// returns is what lstat and stat of that path say (a decision uses it
// instead of asking again): missing when they fail, else the same file of
// the same type and link count. Its path is resolvePath's.
func FuzzResolveLookup(f *testing.F) {
	root, forms := lookupWorkspace(f)
	for _, s := range []string{"src/a.go", "src/twice.go", "src/to-twice", "src/fifo", "src/dir", "src/to-dir/",
		"src/to-dir/x/y", "src/missing", "src/missing/../a.go", "src/a.go/x", "src/a.go/..", "src/up/src/a.go",
		"src/to-a/.", "src/dangle", "src/inside", "src/loop1", "", ".", "src/dir/../../src/fifo", "/", "/tmp"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tail string) {
		for _, p := range []string{root + "/" + tail, root + tail, tail} {
			res, l, r := resolveLooked(p, forms...)
			want, wantR := resolvePath(p, forms...)
			if res != want || (r == nil) != (wantR == nil) {
				t.Fatalf("resolveLooked(%q) = %q, %v; resolvePath %q, %v", p, res, r, want, wantR)
			}
			if r != nil || !l.known() {
				continue
			}
			lfi, lerr := os.Lstat(res)
			sfi, serr := os.Stat(res)
			if l.missing {
				if lerr == nil || serr == nil {
					t.Fatalf("%q: resolved to %q, said missing, but lstat finds %v", p, res, lfi.Mode())
				}
				continue
			}
			if lerr != nil || serr != nil {
				t.Fatalf("%q: resolved to %q, said %v, but lstat: %v, stat: %v", p, res, l.fi.Mode(), lerr, serr)
			}
			for _, fi := range []os.FileInfo{lfi, sfi} {
				if !os.SameFile(l.fi, fi) || l.fi.Mode() != fi.Mode() || hasLinks(l.fi) != hasLinks(fi) {
					t.Fatalf("%q: resolved to %q, said %v (links %v), but it is %v (links %v)", p, res, l.fi.Mode(), hasLinks(l.fi), fi.Mode(), hasLinks(fi))
				}
			}
		}
	})
}

// TestPathFactsLinks: a path's forms are looked up for hard links as
// before the resolution's lookup was reused: per form, lstat's answer.
func TestPathFactsLinks(t *testing.T) {
	root, forms := lookupWorkspace(t)
	for _, tail := range []string{"src/a.go", "src/twice.go", "src/to-twice", "src/fifo", "src/dir", "src/missing",
		"src/missing/../twice.go", "src/twice.go/..", "src/to-dir/../twice.go", "secrets/other-name.go", "src/up/src/twice.go"} {
		in := &reqInfo{roots: forms, memo: &decisionMemo{}}
		f := in.facts(root + "/" + tail)
		if f.refusal != nil {
			t.Fatalf("%s: refused: %v", tail, f.refusal)
		}
		got := f.links()
		for i, form := range f.forms {
			fi, err := os.Lstat(form)
			want := err == nil && fi.Mode().IsRegular() && hasLinks(fi)
			if (got[i] != nil) != want || want && !os.SameFile(got[i], fi) {
				t.Errorf("%s: form %s: links %v, want hard-linked %v", tail, form, got[i], want)
			}
		}
	}
}

// TestPathTextChecks compares isMagicPath and checkPathText with the
// plain forms they are written for speed against.
func TestPathTextChecks(t *testing.T) {
	slowMagic := func(p string) bool {
		for _, m := range magicPrefixes {
			if p == m || strings.HasPrefix(p, m+"/") {
				return true
			}
		}
		rest, ok := strings.CutPrefix(p, "/proc/")
		if !ok {
			return false
		}
		pid, _, _ := strings.Cut(rest, "/")
		return pid != "" && strings.Trim(pid, "0123456789") == ""
	}
	longest := func(p string) int {
		n := 0
		for _, e := range strings.Split(p, "/") {
			n = max(n, len(e))
		}
		return n
	}
	long := strings.Repeat("n", maxNameLen)
	for _, p := range []string{"/", "", "/proc", "/proc/", "/proc/self", "/proc/selfish", "/proc/self/cwd", "/proc/12",
		"/proc/12x", "/proc/12/fd/0", "/proc/thread-self", "/dev", "/dev/", "/dev/fd", "/dev/fd0", "/dev/fd/3", "/dev/stdin",
		"/dev/stdinx", "/dev/stdout/", "/dev/stderr", "/devices/fd", "/w/proc/self", "/w/" + long, "/w/" + long + "n",
		"/" + long + "n/x", "/w/" + long + "n/", "//", "/a//b/", "relative/" + long + "n"} {
		if got, want := isMagicPath(p), slowMagic(p); got != want {
			t.Errorf("isMagicPath(%q) = %v, want %v", p, got, want)
		}
		r := checkPathText(p)
		tooLong := strings.HasPrefix(p, "/") && len(p) <= maxPathLen && longest(p) > maxNameLen
		if got := r != nil && strings.Contains(r.why, "path element"); got != tooLong {
			t.Errorf("checkPathText(%q) = %v, want a too-long element: %v", p, r, tooLong)
		}
	}
}

// FuzzPathTextChecks: isMagicPath and checkPathText against their plain
// forms on any text.
func FuzzPathTextChecks(f *testing.F) {
	for _, s := range []string{"/proc/self/x", "/dev/fd/1", "/proc/77", "/w/" + strings.Repeat("x", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		slow := false
		for _, m := range magicPrefixes {
			slow = slow || p == m || strings.HasPrefix(p, m+"/")
		}
		if rest, ok := strings.CutPrefix(p, "/proc/"); ok {
			pid, _, _ := strings.Cut(rest, "/")
			slow = slow || pid != "" && strings.Trim(pid, "0123456789") == ""
		}
		if got := isMagicPath(p); got != slow {
			t.Fatalf("isMagicPath(%q) = %v, want %v", p, got, slow)
		}
		r := checkPathText(p)
		var want *pathRefusal
		switch {
		case strings.IndexByte(p, 0) >= 0, !utf8.ValidString(p), len(p) > maxPathLen, !strings.HasPrefix(p, "/"):
			return // decided before the elements are looked at
		default:
			for _, e := range strings.Split(p, "/") {
				if len(e) > maxNameLen && want == nil {
					want = refuse("unresolvable-path", "a path element is %d bytes long, more than the %d the system allows", len(e), maxNameLen)
				}
			}
		}
		if (r == nil) != (want == nil) || r != nil && r.why != want.why {
			t.Fatalf("checkPathText(%q) = %v, want %v", p, r, want)
		}
	})
}
