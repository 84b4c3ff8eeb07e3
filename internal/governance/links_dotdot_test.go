package governance

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLinksMadeDotDotAfterName decides a line that makes a link, which the
// test never runs, then a later request whose path steps up with ".."
// out of the link's name: the kernel steps up from where the link leads,
// so the later request is decided there too, for a path an fs request
// names, a name a command gives, and the directory a terminal starts in.
func TestLinksMadeDotDotAfterName(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	for _, d := range []string{"keys/sub", "src/deep"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) Request {
		return Request{Action: ActionFSWrite, Paths: []string{root + "/" + p}, Cwd: root}
	}
	line := func(cwd, l string) Request {
		return Request{Action: ActionTerminalCreate, Command: l, Cwd: root + cwd, Paths: []string{root + cwd}}
	}
	tests := []struct {
		name  string
		first string
		later Request
		want  Value
		what  string
	}{
		{"a write up out of a link to a subdirectory", "ln -s keys/sub kk", write("kk/../a.key"), Deny, "keys/a.key"},
		{"a write up out of a link to its own directory", "ln -s . src/kk", write("src/kk/../a.key"), Allow, ""},
		{"a write two levels up out of a link to its own directory", "ln -s . src/deep/kk", write("src/deep/kk/../../keys/a.key"), Deny, "keys/a.key"},
		{"a write up out of a link reached through a link in place", "ln -s ../keys/sub d/kk", write("d/k/../d/kk/../a.key"), Deny, "keys/a.key"},
		{"a write up out of a link to an absolute directory", "ln -s " + root + "/keys/sub kk", write("kk/../a.key"), Deny, "keys/a.key"},
		{"a write up out of two links, one in the other's target", "ln -s keys/sub kk && ln -s ../../src/deep keys/sub/jj", write("kk/jj/../../a.key"), Deny, "keys/a.key"},
		{"a redirection up out of a link", "ln -s keys/sub kk", line("", "echo x > kk/../a.key"), Deny, "keys/a.key"},
		{"a cd up out of a link", "ln -s keys/sub kk", line("", "cd kk/.. && echo x > a.key"), Deny, "keys/a.key"},
		{"a terminal started up out of a link", "ln -s keys/sub kk", line("/kk/..", "echo x > a.key"), Deny, "keys/a.key"},
		{"a terminal started up out of a link, through a missing directory", "ln -s keys/sub kk", line("/new/../kk/..", "echo x > a.key"), Deny, "keys/a.key"},
		{"a terminal started up out of a link whose target is computed", `ln -s "$RANDOM" kk`, line("/kk/..", "echo x > a.key"), Deny, "known only when it ran"},
		{"a name beneath the link, no step up", "ln -s keys/sub kk", write("kk/x/../b.txt"), Allow, ""},
		{"a link with no step up out of it", "ln -s keys/sub kk", line("/src/../old", "echo x > a.key"), Allow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.made.forget()
			if d := e.Decide(line("", tt.first)); d.Value == Deny {
				t.Fatalf("Decide(%q) = %v (%s); want it run", tt.first, d.Value, d.Reason)
			}
			d := e.Decide(tt.later)
			if d.Value != tt.want || tt.want != Allow && !strings.Contains(d.Reason, tt.what) {
				t.Errorf("after %q: Decide(%s %q in %s) = %v (%s); want %v about %q", tt.first, tt.later.Action, tt.later.Paths, tt.later.Cwd, d.Value, d.Reason, tt.want, tt.what)
			}
			// Without the line first, as the file system shows it, the
			// request is allowed: the link is what refuses it.
			e.made.forget()
			if d := e.Decide(tt.later); d.Value != Allow {
				t.Errorf("Decide(%s %q in %s) alone = %v (%s); want allow", tt.later.Action, tt.later.Paths, tt.later.Cwd, d.Value, d.Reason)
			}
		})
	}
}

// TestLinksMadeAppearingMidDecision resolves a path's forms while the
// file system does not show a kept link yet, then lets the link appear,
// as the IDE's terminal making it may between two steps of one decision,
// and only then follows the kept links: the forms through the link are
// still added, so the decision does not fall between a file system
// without the link and a record that counts it as already there.
func TestLinksMadeAppearingMidDecision(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	if err := os.MkdirAll(filepath.Join(root, "src/deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, first, link, target, path, want string
	}{
		{"a name beneath the link", "ln -s keys kk", "kk", "keys", "kk/a.key", "keys/a.key"},
		{"a step up out of the link", "ln -s . src/deep/kk", "src/deep/kk", ".", "src/deep/kk/../../keys/a.key", "keys/a.key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.made.forget()
			link := filepath.Join(root, tt.link)
			t.Cleanup(func() { os.Remove(link) })
			if d := e.Decide(Request{Action: ActionTerminalCreate, Command: tt.first, Cwd: root, Paths: []string{root}}); d.Value == Deny {
				t.Fatalf("Decide(%q) = %v (%s); want it run", tt.first, d.Value, d.Reason)
			}
			p := root + "/" + tt.path
			forms, _, r := pathFormsLooked(nil, p, root)
			if r != nil {
				t.Fatalf("pathFormsLooked(%s): %s", p, r.why)
			}
			if err := os.Symlink(tt.target, link); err != nil {
				t.Fatal(err)
			}
			forms, r = e.made.extendDotDot(p, forms, []string{root}, 0)
			if r == nil {
				forms, r = e.made.extend(forms, []string{root})
			}
			if want := root + "/" + tt.want; r != nil || !slices.Contains(forms, want) {
				t.Errorf("forms of %s, the link made after they were resolved = %q (refusal %v); want %s among them", tt.path, forms, r, want)
			}
		})
	}
}
