package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDecisionsSeeFileSystemChanges makes one engine decide the same
// request again after the file system changed under it: a symlink swapped
// to a denied or protected file, a directory link swapped to a denied
// directory, a second hard link made and removed. What a decision resolved
// (decisionMemo) must not outlive it, so each decision says what the file
// system says at the time; a hostile agent swaps a link between two of its
// calls exactly to catch an answer kept from the first.
func TestDecisionsSeeFileSystemChanges(t *testing.T) {
	root := tempTree(t, []string{"sub", "secret"}, []string{".env", "a.txt", "b.txt", "GOVERNANCE.md", "sub/x", "secret/x"})
	e := NewEngine(testPolicy(t, "  default: allow\n  deny: [Read(**/.env), Edit(**/.env), Read(./secret/**)]\n"),
		EngineOptions{Roots: []string{root}})
	e.Protect(ProtectedPath{Path: root + "/GOVERNANCE.md", What: "the governance policy"})

	link := func(target, name string) func(t *testing.T) {
		return func(t *testing.T) {
			if err := os.Remove(root + "/" + name); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := os.Symlink(target, root+"/"+name); err != nil {
				t.Fatal(err)
			}
		}
	}
	hardLink := func(t *testing.T) {
		if err := os.Link(root+"/b.txt", root+"/b2.txt"); err != nil {
			t.Fatal(err)
		}
	}
	unlink := func(t *testing.T) {
		if err := os.Remove(root + "/b2.txt"); err != nil {
			t.Fatal(err)
		}
	}
	read := func(p string) Request {
		return Request{Action: ActionFSRead, Paths: []string{root + "/" + p}, Cwd: root}
	}
	write := func(p string) Request {
		return Request{Action: ActionFSWrite, Paths: []string{root + "/" + p}, Cwd: root}
	}
	other := func(p string) Request {
		return Request{Action: ActionToolCall, Kind: "other", Paths: []string{root + "/" + p}, Cwd: root}
	}
	run := func(line string) Request { return Request{Action: ActionTerminalCreate, Command: line, Cwd: root} }

	steps := []struct {
		name   string
		change func(t *testing.T)
		req    Request
		want   Value
	}{
		{"read a link to a.txt", link("a.txt", "link"), read("link"), Allow},
		{"the link now leads to .env", link(".env", "link"), read("link"), Deny},
		{"and back to a.txt", link("a.txt", "link"), read("link"), Allow},
		{"an opaque call on the link", nil, other("link"), Allow},
		{"an opaque call, the link at .env", link(".env", "link"), other("link"), Deny},
		{"a command reading the link at .env", nil, run("cat link"), Deny},
		{"a command reading the link at a.txt", link("a.txt", "link"), run("cat link"), Allow},
		{"write a link to a.txt", nil, write("link"), Allow},
		{"write the link now at the policy", link("GOVERNANCE.md", "link"), write("link"), Deny},
		{"read through a directory link", link("sub", "dir"), read("dir/x"), Allow},
		{"the directory link now at secret", link("secret", "dir"), read("dir/x"), Deny},
		{"read a file with one name", nil, read("b.txt"), Allow},
		{"it has a second name now", hardLink, read("b.txt"), RequireApproval},
		{"one name again", unlink, read("b.txt"), Allow},
	}
	for _, s := range steps {
		if s.change != nil {
			s.change(t)
		}
		if d := e.Decide(s.req); d.Value != s.want {
			t.Errorf("%s: Decide = %v (ref %s: %s); want %v", s.name, d.Value, d.Ref, d.Reason, s.want)
		}
	}
}

// writeFiles writes each file of files (a path under root: its content)
// with mode perm; their directories must exist.
func writeFiles(t *testing.T, root string, files map[string]string, perm os.FileMode) {
	t.Helper()
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(root, n), []byte(c), perm); err != nil {
			t.Fatal(err)
		}
	}
}

// tempTree makes a temporary directory holding the directories dirs and
// the files files, each holding "x", and returns its path.
func tempTree(t *testing.T, dirs, files []string) string {
	t.Helper()
	root := t.TempDir()
	tree{dirs: dirs, files: files}.make(t, root)
	return root
}
