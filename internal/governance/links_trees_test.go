package governance

import (
	"strings"
	"testing"
)

// TestLinksMadeTreeWalks decides a line that makes a link, which the test
// never runs, then a command that reads or changes a directory whole
// through the link's name, or a pattern beneath it: the walk and the
// pattern's expansion go where the link will lead, and a
// command that acts on the link itself (find without -L or a trailing
// slash, rm -r of the name) is left alone.
func TestLinksMadeTreeWalks(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	tests := []struct {
		name, first, later string
		want               Value
		what               string
	}{
		{"find through the link, followed by its slash", "ln -s keys kk", "find kk/ -name a.key -delete", Deny, "keys/a.key"},
		{"find -L through the link", "ln -s keys kk", "find -L kk -name a.key -delete", Deny, "keys/a.key"},
		{"rm -r through the link, followed by its slash", "ln -s keys kk", "rm -r kk/", Deny, "keys/a.key"},
		{"chmod -R through the link", "ln -s keys kk", "chmod -R 600 kk", Deny, "keys/a.key"},
		{"rm -r beneath a link to the workspace", "ln -s . kk", "rm -rf kk/keys", Deny, "keys/a.key"},
		{"grep -r of the link", "ln -s vault vv", "grep -r x vv", Deny, "vault/x.pem"},
		{"grep -r beneath a link to the workspace", "ln -s . vv", "grep -r x vv/vault", Deny, "vault/x.pem"},
		{"find of the link itself, not followed", "ln -s keys kk", "find kk -name a.key -delete", Allow, ""},
		{"rm -r of the link itself", "ln -s keys kk", "rm -r kk", Allow, ""},
		{"grep -r of a link to a plain directory", "ln -s src ss", "grep -r x ss", Allow, ""},
		{"a pattern beneath the link", "ln -s vault vv", "cat vv/x.*", Deny, "vault/x.pem"},
		{"a pattern beneath a link to the workspace", "ln -s . kk", "cat kk/vault/*", Deny, "vault/x.pem"},
		{"a pattern beneath the link, edited in place", "ln -s keys kk", "sed -i s/a/b/ kk/*", Deny, "keys/a.key"},
		{"a pattern beneath a link to a plain directory", "ln -s src ss", "cat ss/*.go", Allow, ""},
	}
	line := func(l string) Request { return Request{Action: ActionTerminalCreate, Command: l, Cwd: root} }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.made.forget()
			if d := e.Decide(line(tt.first)); d.Value == Deny {
				t.Fatalf("Decide(%q) = %v (%s); want it run", tt.first, d.Value, d.Reason)
			}
			d := e.Decide(line(tt.later))
			if d.Value != tt.want || tt.want != Allow && !strings.Contains(d.Reason, tt.what) {
				t.Errorf("after %q: Decide(%q) = %v (%s); want %v about %q", tt.first, tt.later, d.Value, d.Reason, tt.want, tt.what)
			}
			e.made.forget()
			if d := e.Decide(line(tt.later)); d.Value != Allow {
				t.Errorf("Decide(%q) alone = %v (%s); want allow", tt.later, d.Value, d.Reason)
			}
		})
	}
}
