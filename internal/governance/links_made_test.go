package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// forget drops every link kept, as an engine that decided nothing yet.
func (m *madeLinks) forget() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.byName = nil
	m.n.Store(0)
}

// TestLinksMadeDecideLaterRequests decides a line that makes a link, which
// the test never runs (as a terminal the IDE has not got to yet), and
// then a later request through the link's name: the later request is
// decided where the link will lead.
func TestLinksMadeDecideLaterRequests(t *testing.T) {
	e, root, other := treeWriteWorkspace(t)
	write := func(p string) Request {
		return Request{Action: ActionFSWrite, Paths: []string{root + "/" + p}, Cwd: root}
	}
	line := func(l string) Request { return Request{Action: ActionTerminalCreate, Command: l, Cwd: root} }
	tests := []struct {
		name      string
		first     string
		firstWant Value
		later     Request
		want      Value
		what      string
	}{
		{"a link to the workspace, then a write beneath it", "ln -s . dw", Allow, write("dw/keys/a.key"), Deny, "keys/a.key"},
		{"a link to a directory, then a redirection into it", "ln -s keys l", Allow, line("echo x > l/a.key"), Deny, "keys/a.key"},
		{"a link outside (asked), then a write beneath it", "ln -s ../other o", RequireApproval, write("o/f"), Deny, "outside the workspace roots"},
		{"a dangling link outside, then a write of it", "ln -s " + other + "/new n", Allow, write("n"), Deny, "outside the workspace roots"},
		{"cp -s, then a write of the link", "cp -s " + root + "/keys/a.key c", Allow, write("c"), Deny, "keys/a.key"},
		{"cp --symbolic-link, then a write", "cp --symbolic-link " + root + "/keys/a.key c2", Allow, write("c2"), Deny, "keys/a.key"},
		{"a hard link, then a write of it", "ln keys/a.key h", Allow, write("h"), Deny, "keys/a.key"},
		{"rsync --link-dest, then a write beneath the destination", "rsync -a --link-dest=" + root + "/keys src/b/ c/", Allow, write("c/a.key"), Deny, "keys/a.key"},
		{"rsync --link-dest as a separate word, then a write", "rsync -a --link-dest " + root + "/keys src/b/ c2/", Allow, write("c2/a.key"), Deny, "keys/a.key"},
		{"rsync --link-dest to one file, then a write of it", "rsync -a --link-dest=keys a.txt b.key", Allow, write("b.key"), Deny, "keys/b.key"},
		{"rsync --link-dest of a directory holding a link, then a write", "rsync -r --size-only --link-dest=" + root + "/d src/b/ c4/", Allow, write("c4/k/a.key"), Deny, "keys/a.key"},
		{"rsync --link-dest to a plain directory, then a write", "rsync -a --link-dest=" + root + "/old src/b/ c5/", Allow, write("c5/c.go"), Allow, ""},
		{"ln --sym, then a write of it", "ln --sym a.key keys/s1", Allow, write("keys/s1"), Deny, "keys/a.key"},
		{"ln --symb, then a write of it", "ln --symb a.key keys/s2", Allow, write("keys/s2"), Deny, "keys/a.key"},
		{"cp --lin, then a write of it", "cp --lin keys/a.key h2", Allow, write("h2"), Deny, "keys/a.key"},
		{"cp --l, then a write of it", "cp --l keys/a.key h3", Allow, write("h3"), Deny, "keys/a.key"},
		{"cp --sym, then a write of it", "cp --sym " + root + "/keys/a.key c3", Allow, write("c3"), Deny, "keys/a.key"},
		{"ln --rel -s, then a write of it", "ln --rel -s keys/a.key r2", Allow, write("r2"), Deny, "keys/a.key"},
		{"ln --sy into a directory, then a write of the link", "ln --sy ../keys/a.key old/", Allow, write("old/a.key"), Deny, "keys/a.key"},
		{"ln -r, then a write of it", "ln -sr keys/a.key r", Allow, write("r"), Deny, "keys/a.key"},
		{"a link made in a directory, then a write", "ln -s ../keys/a.key src/", Allow, write("src/a.key"), Deny, "keys/a.key"},
		{"a link moved to a new name, then a write beneath it", "mv lk m", Allow, write("m/a.key"), Deny, "keys/a.key"},
		{"a link copied as a link, then a write", "cp -P links/k m2", Allow, write("m2"), Deny, "keys/a.key"},
		{"a tree holding a link copied, then a write", "cp -a links cp2", Allow, write("cp2/k"), Deny, "keys/a.key"},
		{"a tree holding a link moved into a directory, then a write", "mv d empty/", Allow, write("empty/d/k/a.key"), Deny, "keys/a.key"},
		{"a link whose target is computed, then a write", `ln -s "$RANDOM" u`, RequireApproval, write("u/x"), Deny, "known only when it ran"},
		{"a link to a plain directory, then a write", "ln -s src l2", Allow, write("l2/new.go"), Allow, ""},
		{"a refused line keeps nothing", "ln -s keys/a.key x && echo > x", Deny, write("x"), Allow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.made.forget()
			if d := e.Decide(line(tt.first)); d.Value != tt.firstWant {
				t.Fatalf("Decide(%q) = %v (%s); want %v", tt.first, d.Value, d.Reason, tt.firstWant)
			}
			d := e.Decide(tt.later)
			if d.Value != tt.want || tt.want != Allow && !strings.Contains(d.Reason, tt.what) {
				t.Errorf("after %q: Decide(%s %q) = %v (%s); want %v about %q", tt.first, tt.later.Action, tt.later.Paths, d.Value, d.Reason, tt.want, tt.what)
			}
			// The same request without the line first, as the file
			// system shows it, is allowed: the link is what refuses it.
			e.made.forget()
			if d := e.Decide(tt.later); d.Value != Allow {
				t.Errorf("Decide(%s %q) alone = %v (%s); want allow", tt.later.Action, tt.later.Paths, d.Value, d.Reason)
			}
		})
	}
}

// TestLinksMadeFollowTheirNames decides lines that make links, none of
// which the test runs, then a later request: a link made in a directory
// that is a link itself (or from a terminal whose cwd is one) is kept at
// the name the kernel opens too, and a copy or move of a kept link, or of
// the directory holding one, keeps it at its new place.
func TestLinksMadeFollowTheirNames(t *testing.T) {
	tmp := t.TempDir()
	root, other := filepath.Join(tmp, "ws"), filepath.Join(tmp, "other")
	tree{dirs: []string{"ws/sub", "ws/dd", "other"}, files: []string{"ws/keys/a.key"}, links: map[string]string{"ws/dl": "sub"}}.make(t, tmp)
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  deny:\n    - Edit(./keys/*.key)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	write := func(p string) Request {
		return Request{Action: ActionFSWrite, Paths: []string{root + "/" + p}, Cwd: root}
	}
	tests := []struct {
		name  string
		lines []string // each decided in turn, in cwd (root when "")
		cwd   string
		later Request
		what  string
	}{
		{"a link made in a linked directory, written by the real name", []string{"ln -s " + root + " dl/w"}, "", write("sub/w/keys/a.key"), "keys/a.key"},
		{"a link named through a linked directory, outside", []string{"ln -s " + other + "/new dl"}, "", write("sub/new"), "outside the workspace roots"},
		{"a link made from a linked cwd", []string{"ln -s .. g"}, "dl", write("sub/g/keys/a.key"), "keys/a.key"},
		{"a hard link made from a linked cwd", []string{"ln ../keys/a.key h"}, "dl", write("sub/h"), "keys/a.key"},
		{"the directory holding a kept link moved", []string{"ln -s " + root + " dd/w", "mv dd ee"}, "", write("ee/w/keys/a.key"), "keys/a.key"},
		{"the directory holding a kept link copied", []string{"ln -s " + root + " dd/w", "cp -a dd ee"}, "", write("ee/w/keys/a.key"), "keys/a.key"},
		{"a kept link copied as a link", []string{"ln -s " + root + " e", "cp -P e f"}, "", write("f/keys/a.key"), "keys/a.key"},
		{"a kept hard link's directory moved", []string{"ln keys/a.key dd/e", "mv dd ee"}, "", write("ee/e"), "keys/a.key"},
		{"a kept relative link moved twice", []string{"ln -s ../keys dd/k", "mv dd ee", "mv ee ff"}, "", write("ff/k/a.key"), "keys/a.key"},
		{"a kept link's directory moved by git mv", []string{"ln -s " + root + " dd/w", "git mv dd ee"}, "", write("ee/w/keys/a.key"), "keys/a.key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.made.forget()
			cwd := root
			if tt.cwd != "" {
				cwd = root + "/" + tt.cwd
			}
			for _, l := range tt.lines {
				if d := e.Decide(Request{Action: ActionTerminalCreate, Command: l, Cwd: cwd}); d.Value == Deny {
					t.Fatalf("Decide(%q) = deny (%s); the line must run", l, d.Reason)
				}
			}
			if d := e.Decide(tt.later); d.Value != Deny || !strings.Contains(d.Reason, tt.what) {
				t.Errorf("after %q: Decide(write %q) = %v (%s); want deny about %q", tt.lines, tt.later.Paths, d.Value, d.Reason, tt.what)
			}
			e.made.forget()
			if d := e.Decide(tt.later); d.Value != Allow {
				t.Errorf("Decide(write %q) alone = %v (%s); want allow", tt.later.Paths, d.Value, d.Reason)
			}
		})
	}
}

// TestLinksMadeIntoDirectories decides a line that makes a link or copies
// one into a directory that exists, named so that it can name nothing but
// that directory ("." or a trailing "/"), then a later request beneath
// that directory: the directory itself is not kept as a link (ln puts the
// link beneath it and never replaces it), so the request is decided as
// before.
func TestLinksMadeIntoDirectories(t *testing.T) {
	e, root, other := treeWriteWorkspace(t)
	tests := []struct{ first, later string }{
		{"ln -s " + other + "/f .", "a.txt"},
		{"ln -s ../a.txt src/", "src/a.go"},
		{"cp -a links/k .", "a.txt"},
		{"cp -P links/k src/", "src/a.go"},
		{"mv lk old", "old/x"},
	}
	for _, tt := range tests {
		e.made.forget()
		if d := e.Decide(Request{Action: ActionTerminalCreate, Command: tt.first, Cwd: root}); d.Value == Deny {
			t.Fatalf("Decide(%q) = deny (%s); the line must run", tt.first, d.Reason)
		}
		if d := e.Decide(Request{Action: ActionFSWrite, Paths: []string{root + "/" + tt.later}, Cwd: root}); d.Value != Allow {
			t.Errorf("after %q: write of %s = %v (%s); want allow", tt.first, tt.later, d.Value, d.Reason)
		}
	}
	e.made.forget()
}

// TestMadeLinksRoom checks the room reserved for a decision's links: what
// is reserved counts against maxMadeLinks until keep gives it back, so two
// decisions under way cannot both be promised the last room.
func TestMadeLinksRoom(t *testing.T) {
	var m madeLinks
	if !m.reserve(maxMadeLinks - 1) {
		t.Fatal("reserve(max-1) on an empty record failed")
	}
	if m.reserve(2) {
		t.Error("reserve(2) succeeded beside max-1 reserved")
	}
	if !m.reserve(1) {
		t.Error("reserve(1) failed with one place left")
	}
	m.keep(nil, maxMadeLinks-1, false)
	m.keep([]madeLink{{name: "/w/a", target: "/w/b"}}, 1, true)
	if m.n.Load() != 1 || m.reserve(maxMadeLinks) {
		t.Errorf("after keeping one link: %d kept, reserve(max) still fits", m.n.Load())
	}
	if !m.reserve(maxMadeLinks - 1) {
		t.Error("reserve(max-1) failed beside one kept link")
	}
}

// TestMadeLinksInPlaceStayKept checks that a kept link the file system
// shows in place adds nothing while it is there, and applies again once
// it is gone: the terminal that keeps it may still make it.
func TestMadeLinksInPlaceStayKept(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	e.made.forget()
	if d := e.Decide(Request{Action: ActionTerminalCreate, Command: "ln -s keys dk", Cwd: root}); d.Value == Deny {
		t.Fatalf("the link line is denied: %s", d.Reason)
	}
	write := Request{Action: ActionFSWrite, Paths: []string{root + "/dk/a.key"}, Cwd: root}
	if d := e.Decide(write); d.Value != Deny {
		t.Fatalf("write through the kept link = %v (%s); want deny", d.Value, d.Reason)
	}
	if err := os.Symlink("keys", root+"/dk"); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(write); d.Value != Deny {
		t.Errorf("write through the link in place = %v (%s); want deny", d.Value, d.Reason)
	}
	if err := os.Remove(root + "/dk"); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(write); d.Value != Deny {
		t.Errorf("write once the link in place is gone = %v (%s); want deny", d.Value, d.Reason)
	}
	e.made.forget()
}

// TestLinksMadeOnceADirectoryIsRemoved decides, none of them run, a line
// removing a directory, a line making a link into it and a write through
// its name, in either order of the first two (terminals run side by side,
// so a removal decided later may run first): the link is made at the
// directory's name once the directory is gone, and the write through it
// is refused. So it is without a removal the bridge reads (find -delete,
// or a line still to come): only a destination that can name nothing but
// the directory (a trailing "/") keeps the link beneath it alone.
func TestLinksMadeOnceADirectoryIsRemoved(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	write := Request{Action: ActionFSWrite, Paths: []string{root + "/empty/a.key"}, Cwd: root}
	for _, tt := range []struct {
		lines []string
		want  Value
	}{
		{[]string{"sleep 2; rmdir empty", "sleep 4; ln -s keys empty"}, Deny},
		{[]string{"sleep 4; ln -s keys empty", "sleep 1; rmdir empty"}, Deny},
		{[]string{"rm -r empty", "cp -P lk empty"}, Deny},
		{[]string{"mv empty gone", "ln -s keys empty"}, Deny},
		{[]string{"find empty -delete", "ln -s keys empty"}, Deny},
		{[]string{"ln -s keys empty"}, Deny},
		{[]string{"ln -s keys empty/"}, Allow},
		{[]string{"cp -P lk empty/"}, Allow},
	} {
		e.made.forget()
		for _, l := range tt.lines {
			if d := e.Decide(Request{Action: ActionTerminalCreate, Command: l, Cwd: root}); d.Value == Deny {
				t.Fatalf("Decide(%q) = deny (%s); the line must run", l, d.Reason)
			}
		}
		if d := e.Decide(write); d.Value != tt.want {
			t.Errorf("after %q: write of empty/a.key = %v (%s); want %v", tt.lines, d.Value, d.Reason, tt.want)
		}
	}
	e.made.forget()
}
