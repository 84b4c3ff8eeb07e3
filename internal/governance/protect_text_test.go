package governance

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestKeptLineTextSeesLinks: an engine keeps what it read in the text of a
// pure command line, never what the names in it lead to: a name swapped
// for a link to a protected file between two decisions of the same line
// is refused at once, and allowed again once it is a plain file.
func TestKeptLineTextSeesLinks(t *testing.T) {
	e, root, tmp := protectedWorkspace(t)
	notes := root + "/src/notes.md"
	plain := func(t *testing.T) {
		if err := os.Remove(notes); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.WriteFile(notes, []byte("notes"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	symlink := func(t *testing.T) {
		if err := os.Remove(notes); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(root+"/GOVERNANCE.md", notes); err != nil {
			t.Fatal(err)
		}
	}
	hardLink := func(t *testing.T) {
		if err := os.Remove(notes); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(root+"/GOVERNANCE.md", notes); err != nil {
			t.Fatal(err)
		}
	}
	emptyDir := func(t *testing.T) {
		if err := os.MkdirAll(root+"/src/old", 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(line, dir string) Request {
		return Request{Action: ActionTerminalCreate, Command: line, Cwd: dir}
	}
	for _, s := range []struct {
		name   string
		change func(t *testing.T)
		req    Request
		denied bool
	}{
		{"truncate a plain file", plain, run("truncate -s0 notes.md", root+"/src"), false},
		{"the same line, the file now a link to the policy", symlink, run("truncate -s0 notes.md", root+"/src"), true},
		{"the same line, a plain file again", plain, run("truncate -s0 notes.md", root+"/src"), false},
		{"the same line, a hard link to the policy", hardLink, run("truncate -s0 notes.md", root+"/src"), true},
		{"the same line from the root", plain, run("truncate -s0 notes.md", root), false},
		{"the name with its directory, a link again", symlink, run("truncate -s0 src/notes.md", root), true},
		{"remove a directory", emptyDir, run("rm -r old", root+"/src"), false},
		{"the same line run in the compression cache", nil, run("rm -r old", tmp+"/cache/offload"), true},
	} {
		if s.change != nil {
			s.change(t)
		}
		for i := range 2 { // the second decision uses what the first kept
			d := e.Decide(s.req)
			if got := d.Ref == "self-protection"; got != s.denied {
				t.Errorf("%s (decision %d): Decide = %v (ref %s: %s); want self-protection %v", s.name, i+1, d.Value, d.Ref, d.Reason, s.denied)
			}
		}
	}
}

// FuzzLineTextKept compares what an engine keeps of a command line's text
// (lineTextOf) with reading it again (namedIndex, lineNames), and the
// decisions made with and without it kept, in three directories of a
// workspace holding the bridge's files.
func FuzzLineTextKept(f *testing.F) {
	for _, s := range []string{"cat GOVERNANCE.md", "cat ../GOVERNANCE.md", "truncate -s0 src/policy-link", "ls -la",
		"cat audit/audit-log.jsonl.000001", "cp -r evil/. .", "rm -rf audit", "go test ./...", "cat ACP.md.bak",
		"echo governance.md", "cat src/hard.md", "find audit -delete", "sh -c cat=ACP.md", "cat \"ACP\".md", "cat A*"} {
		for dir := range uint8(3) {
			f.Add(s, dir)
		}
	}
	e, root, _ := protectedWorkspace(f)
	dirs := []string{root, root + "/src", filepath.Dir(root)}
	f.Fuzz(func(t *testing.T, line string, dir uint8) {
		req := Request{Action: ActionTerminalCreate, Command: line, Cwd: dirs[int(dir)%len(dirs)]}
		first := e.Decide(req)
		second := e.Decide(req)
		if !reflect.DeepEqual(first, second) {
			t.Fatalf("%q in %s: decided %+v, then %+v", line, req.Cwd, first, second)
		}
		in := e.info(req)
		list := e.protectedFor(in)
		if len(list) == 0 {
			t.Fatal("no protected locations")
		}
		cmd := in.req.Command + " "
		cwd := filepath.Clean(req.Cwd)
		lines := in.commandLines()
		kept := e.lineTextOf(in, list, cmd, lines, cwd)
		names, ok := e.lineNames(in, cmd, lines, cwd)
		want := lineText{named: namedIndex(list, cmd, lines, cwd), names: names, namesOK: ok}
		if !reflect.DeepEqual(kept, want) {
			t.Fatalf("%q in %s: kept %+v, read %+v", line, cwd, kept, want)
		}
	})
}
