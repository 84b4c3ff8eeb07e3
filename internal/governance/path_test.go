package governance

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pathWorkspace makes a workspace with the links a hostile agent could
// leave in it: to per-process locations, dangling ones pointing out of
// the root and into denied places, loops, and a chain longer than the
// kernel follows.
func pathWorkspace(t testing.TB) (root, outside string) {
	t.Helper()
	tmp := t.TempDir()
	root, outside = filepath.Join(tmp, "ws"), filepath.Join(tmp, "outside")
	links := map[string]string{
		"src/cwd":        "/proc/self/cwd",          // the opener's cwd
		"src/root":       "/proc/self/root",         // the opener's root
		"src/fd":         "/dev/fd/0",               // via /dev/fd -> /proc/self/fd
		"src/mounts":     "/proc/mounts",            // a procfs link to self/mounts
		"src/pid":        "/proc/1/cwd",             // another process's cwd
		"src/thread":     "/proc/thread-self/cwd",   // the opening thread's
		"src/dangle":     outside + "/created.txt",  // dangling, absolute, out of the root
		"src/dangle-rel": "../../outside/new.txt",   // dangling, relative, out of the root
		"src/chain1":     "chain2",                  // dangling chain out of the root
		"src/chain2":     outside + "/deep/new.txt", //
		"src/secret":     "../secrets/new.txt",      // dangling into a denied directory
		"src/env":        "../.env",                 // dangling to a denied name
		"src/inside":     "b.go",                    // dangling, inside: harmless
		"src/loop1":      "loop2",                   // a loop
		"src/loop2":      "loop1",                   //
		"src/self":       "self",                    // a link to itself
		"src/up":         "..",                      // a link to the parent, not a loop
	}
	// A chain of maxLinks+1 links, each to the next.
	for i := 0; i <= maxLinks; i++ {
		links["src/long"+strconv.Itoa(i)] = "long" + strconv.Itoa(i+1)
	}
	tree{dirs: []string{"src", "secrets", "../outside"}, links: links}.make(t, root)
	return root, outside
}

// pathEngine returns an engine with the test policy whose one root is a
// pathWorkspace, and that root.
func pathEngine(t *testing.T) (*Engine, string) {
	t.Helper()
	p := testdataPolicy(t)
	root, _ := pathWorkspace(t)
	return NewEngine(p, EngineOptions{Roots: []string{root}}), root
}

func TestDecideUntrustworthyPaths(t *testing.T) {
	e, root := pathEngine(t)
	long := root + "/" + strings.Repeat("a/", 2100)
	for _, c := range caseRows(t, "untrustworthy_paths.txt", 5, map[string]string{"$ROOT": root, "$LONG": long}) {
		action, path, ref, reason := c.fields[1], c.fields[2], c.fields[3], c.fields[4]
		t.Run(c.fields[0], func(t *testing.T) {
			d := e.Decide(Request{Action: action, Paths: []string{path}, Cwd: root})
			if d.Value != Deny || d.Ref != ref || !strings.Contains(d.Reason, reason) {
				t.Errorf("untrustworthy_paths.txt:%d: Decide(%s %q) = %v (ref %s); want deny, ref %s, reason containing %q", c.line, action, path, d, d.Ref, ref, reason)
			}
		})
	}
}

// TestDecideHarmlessLinks checks that links that stay where a rule allows
// are still allowed: the walk must not refuse what the kernel would open
// in the same place.
func TestDecideHarmlessLinks(t *testing.T) {
	e, root := pathEngine(t)
	for _, tt := range []struct {
		action, path string
		want         Value
	}{
		{ActionFSWrite, root + "/src/inside", Allow},      // dangling to src/b.go
		{ActionFSWrite, root + "/src/up/src/x.go", Allow}, // src/up is ws
		{ActionFSRead, root + "/src/up/src/../src/a.go", Allow},
		{ActionFSRead, "/usr/share/doc/x/README", Allow}, // an absolute allow rule
		{ActionFSRead, "/proc/cpuinfo", Deny},            // not per-process, but outside the roots
	} {
		if d := e.Decide(Request{Action: tt.action, Paths: []string{tt.path}, Cwd: root}); d.Value != tt.want {
			t.Errorf("Decide(%s %s) = %v; want %s", tt.action, tt.path, d, tt.want)
		}
	}
}

// TestResolvePathDangling checks the target a dangling link resolves to,
// as open(O_CREAT) would create it.
func TestResolvePathDangling(t *testing.T) {
	root, outside := pathWorkspace(t)
	for link, want := range map[string]string{
		"src/dangle":        outside + "/created.txt",
		"src/dangle-rel":    outside + "/new.txt",
		"src/chain1":        outside + "/deep/new.txt",
		"src/inside":        root + "/src/b.go",
		"src/up/src/inside": root + "/src/b.go",
	} {
		got, r := resolvePath(root+"/"+link, root)
		if r != nil || got != want {
			t.Errorf("resolvePath(%s) = %q, %v; want %q", link, got, r, want)
		}
	}
}

// FuzzResolvePath checks that path resolution never panics or hangs, and
// that whatever it accepts is a clean absolute UTF-8 path outside the
// per-process locations, whatever links the workspace holds.
func FuzzResolvePath(f *testing.F) {
	root, _ := pathWorkspace(f)
	for _, s := range []string{"src/a.go", "src/cwd/x", "src/loop1/x", "src/dangle", "src/up/up/../src/env",
		"src/long0", "../../proc/self/cwd", "src/\xff", "src/a\x00b", "src/fd", "src/chain1/../x", "/proc/self/root",
		"//dev//fd//0", "src/mounts/../x"} {
		f.Add(s)
	}
	forms := rootForms([]string{root})
	f.Fuzz(func(t *testing.T, tail string) {
		for _, p := range []string{root + "/" + tail, tail} {
			got, r := pathForms(p, forms...)
			if r != nil {
				if refusalRules[r.ref] == "" || r.why == "" {
					t.Fatalf("%q: refusal without a rule or reason: %+v", p, r)
				}
				continue
			}
			for _, g := range got {
				if !filepath.IsAbs(g) || filepath.Clean(g) != g || strings.ContainsRune(g, 0) {
					t.Fatalf("%q: form %q is not clean and absolute", p, g)
				}
				if isMagicPath(g) {
					t.Fatalf("%q: form %q is a per-process location", p, g)
				}
			}
		}
	})
}

// TestTerminalWithoutCwd: a terminal request that names no cwd runs where
// the IDE chooses (its own directory), so whatever its command names is
// not where the bridge would judge it; it is denied with that reason.
func TestTerminalWithoutCwd(t *testing.T) {
	e, root := pathEngine(t)
	for _, tt := range []struct {
		req  Request
		want Value
	}{
		{Request{Action: ActionTerminalCreate, Command: "echo pwned > victim.txt", Cwd: root, NoCwd: true}, Deny},
		{Request{Action: ActionTerminalCreate, Command: "echo pwned > victim.txt", Cwd: root}, Allow},
	} {
		d := e.Decide(tt.req)
		if d.Value != tt.want || tt.want == Deny && (d.Ref != "relative-path" || !strings.Contains(d.Reason, "own working directory")) {
			t.Errorf("Decide(%+v) = %v (ref %s); want %s", tt.req, d, d.Ref, tt.want)
		}
	}
}
