package governance

import "testing"

// TestResolveBeyondMissingDirectory checks that a ".." after a directory
// that does not exist yet is taken as the kernel takes it once an opener
// that makes parent directories (mkdir -p, then open) has made it: the
// links after it are followed, not joined lexically.
func TestResolveBeyondMissingDirectory(t *testing.T) {
	root, outside := pathWorkspace(t)
	for _, tt := range []struct{ path, want string }{
		{"new/../src/up/.env", root + "/.env"},                   // src/up is the workspace
		{"new/deeper/../../src/up/x", root + "/x"},               // two missing levels
		{"new/../src/dangle", outside + "/created.txt"},          // a dangling link beyond
		{"new/../src/chain1", outside + "/deep/new.txt"},         // a chain beyond
		{"src/new/../up/secrets/a.key", root + "/secrets/a.key"}, // missing below a real directory
		{"new/x/y", root + "/new/x/y"},                           // no "..": as written
		{"new/../src/new.go", root + "/src/new.go"},              // nothing beyond: as written
	} {
		got, r := resolvePath(root+"/"+tt.path, root)
		if r != nil || got != tt.want {
			t.Errorf("resolvePath(%s) = %q, %v; want %q", tt.path, got, r, tt.want)
		}
	}
	if _, r := resolvePath(root+"/new/../src/cwd/x", root); r == nil || r.ref != "magic-link" {
		t.Errorf("resolvePath(new/../src/cwd/x) = %v; want the magic-link refusal", r)
	}
}

// TestDecideBeyondMissingDirectory checks the decisions on such paths: a
// write through a missing directory and ".." to a link out of the
// workspace, or to a denied file, is decided where it lands.
func TestDecideBeyondMissingDirectory(t *testing.T) {
	e, root := pathEngine(t)
	for _, tt := range []struct {
		action, path string
		want         Value
	}{
		{ActionFSWrite, root + "/new/../src/dangle", Deny},             // outside the roots
		{ActionFSWrite, root + "/new/../src/up/.env", RequireApproval}, // .env: the default asks
		{ActionFSRead, root + "/new/../src/up/.env", Deny},             // read the same
		{ActionFSWrite, root + "/new/../src/up/src/x.go", Allow},       // lands in src: allowed
		{ActionFSWrite, root + "/new/deeper/../../src/x.go", Allow},    // no link beyond
	} {
		if d := e.Decide(Request{Action: tt.action, Paths: []string{tt.path}, Cwd: root}); d.Value != tt.want {
			t.Errorf("Decide(%s %s) = %v; want %s", tt.action, tt.path, d, tt.want)
		}
	}
}
