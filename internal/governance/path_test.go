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
	p, err := LoadPolicy("testdata/policy/GOVERNANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	root, _ := pathWorkspace(t)
	return NewEngine(p, EngineOptions{Roots: []string{root}}), root
}

func TestDecideUntrustworthyPaths(t *testing.T) {
	e, root := pathEngine(t)
	long := root + "/" + strings.Repeat("a/", 2100)
	tests := []struct {
		name   string
		action string
		path   string
		ref    string // Decision.Ref; every case is a deny
		reason string // substring of Decision.Reason
	}{
		{"relative", ActionFSRead, "src/a.go", "relative-path", "relative path"},
		{"dot relative", ActionFSWrite, "./src/a.go", "relative-path", "relative path"},
		{"dotdot relative", ActionFSRead, "../ws/src/a.go", "relative-path", "relative path"},
		{"tilde", ActionFSRead, "~/.ssh/id_rsa", "relative-path", "relative path"},
		{"dot", ActionFSRead, ".", "relative-path", "relative path"},
		{"NUL byte", ActionFSRead, root + "/src/a.go\x00/../../.env", "unresolvable-path", "NUL byte"},
		{"not UTF-8", ActionFSWrite, root + "/src/\xff\xfe.go", "unresolvable-path", "UTF-8"},
		{"overlong UTF-8 slash", ActionFSRead, root + "/src/\xc0\xaf.env", "unresolvable-path", "UTF-8"},
		{"too long", ActionFSRead, long, "unresolvable-path", "bytes long"},
		{"element too long", ActionFSWrite, root + "/src/" + strings.Repeat("x", 256), "unresolvable-path", "element"},
		{"symlink loop", ActionFSRead, root + "/src/loop1", "unresolvable-path", "symlinks"},
		{"symlink loop beneath", ActionFSWrite, root + "/src/loop2/x/y", "unresolvable-path", "symlinks"},
		{"link to itself", ActionFSWrite, root + "/src/self", "unresolvable-path", "symlinks"},
		{"chain longer than the kernel follows", ActionFSRead, root + "/src/long0", "unresolvable-path", "symlinks"},
		{"link to /proc/self/cwd", ActionFSRead, root + "/src/cwd/.env", "magic-link", "/proc/self"},
		{"link to /proc/self/root", ActionFSWrite, root + "/src/root/etc/cron.d/x", "magic-link", "/proc/self"},
		{"link to /dev/fd", ActionFSRead, root + "/src/fd", "magic-link", "/dev/fd"},
		{"link to a procfs link", ActionFSRead, root + "/src/mounts", "magic-link", "/proc/"},
		{"link to /proc/1/cwd", ActionFSRead, root + "/src/pid/x", "magic-link", "/proc/1"},
		{"link to /proc/thread-self", ActionFSRead, root + "/src/thread", "magic-link", "/proc/thread-self"},
		{"/proc/self directly", ActionFSRead, "/proc/self/cwd/src/a.go", "magic-link", "/proc/self"},
		{"/proc/<pid> directly", ActionFSRead, "/proc/4242/root/etc/passwd", "magic-link", "/proc/4242"},
		{"/proc/self spelled with dots", ActionFSRead, "/proc/./self/../self/cwd", "magic-link", "/proc/self"},
		{"/dev/stdin", ActionFSRead, "/dev/stdin", "magic-link", "/dev/stdin"},
		{"/dev/fd directly", ActionFSWrite, "/dev/fd/3", "magic-link", "/dev/fd"},
		{"dangling link out of the root", ActionFSWrite, root + "/src/dangle", "workspace-roots", "created.txt"},
		{"dangling relative link out of the root", ActionFSWrite, root + "/src/dangle-rel", "workspace-roots", "outside/new.txt"},
		{"dangling chain out of the root", ActionFSWrite, root + "/src/chain1", "workspace-roots", "deep/new.txt"},
		{"dangling link into a denied dir", ActionFSRead, root + "/src/secret", "rules-deny-2", "secrets/new.txt"},
		{"dangling link to a denied name", ActionFSRead, root + "/src/env", "rules-deny-1", ".env"},
		{"parent link then out", ActionFSWrite, root + "/src/up/../outside/x", "workspace-roots", "outside/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.Decide(Request{Action: tt.action, Paths: []string{tt.path}, Cwd: root})
			if d.Value != Deny || d.Ref != tt.ref || !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("Decide(%s %q) = %v (ref %s); want deny, ref %s, reason containing %q", tt.action, tt.path, d, d.Ref, tt.ref, tt.reason)
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
