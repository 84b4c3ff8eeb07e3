package governance

import (
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestDecideSpecialFiles checks that an fs/* request is denied when its
// path leads to a named pipe or a socket (an IDE's open of a pipe waits
// for a writer that never comes), directly or through a symlink, and that
// the agent's own tools and commands naming them are left to the rules.
func TestDecideSpecialFiles(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(root+"/pipe", 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", root+"/sock")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := os.Symlink("pipe", root+"/notes.txt"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(root+"/a.txt", []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(&Policy{Default: Allow, DefaultWhere: "test"}, EngineOptions{Roots: []string{root}})
	tests := []struct {
		name string
		req  Request
		want Value
		what string
	}{
		{"read a named pipe", Request{Action: ActionFSRead, Paths: []string{root + "/pipe"}}, Deny, "named pipe"},
		{"write a named pipe", Request{Action: ActionFSWrite, Paths: []string{root + "/pipe"}}, Deny, "named pipe"},
		{"read a named pipe through a symlink", Request{Action: ActionFSRead, Paths: []string{root + "/notes.txt"}}, Deny, "named pipe"},
		{"read a socket", Request{Action: ActionFSRead, Paths: []string{root + "/sock"}}, Deny, "socket"},
		{"read a file", Request{Action: ActionFSRead, Paths: []string{root + "/a.txt"}}, Allow, ""},
		{"write a new file", Request{Action: ActionFSWrite, Paths: []string{root + "/new.txt"}}, Allow, ""},
		{"a tool call's location", Request{Action: ActionToolCall, Kind: "read", Paths: []string{root + "/pipe"}}, Allow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Cwd = root
			d := e.Decide(tt.req)
			if d.Value != tt.want || tt.want == Deny && (d.Ref != "special-file" || !strings.Contains(d.Reason, tt.what)) {
				t.Errorf("Decide(%+v) = %v (ref %s: %s); want %s about %q", tt.req, d.Value, d.Ref, d.Reason, tt.want, tt.what)
			}
		})
	}
}

// TestDecideHardLinks checks that a read or write of a file with several
// hard links asks when the policy restricts any path (the other name may
// be .env), that a rule's deny still wins, and that a policy restricting
// no path does not ask.
func TestDecideHardLinks(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".env", "a.txt"} {
		if err := os.WriteFile(root+"/"+f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(root+"/.env", root+"/notes.txt"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("notes.txt", root+"/readme"); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(testPolicy(t, "  default: allow\n  deny: [Read(**/.env)]\n"), EngineOptions{Roots: []string{root}})
	open := NewEngine(&Policy{Default: Allow, DefaultWhere: "test"}, EngineOptions{Roots: []string{root}})
	tests := []struct {
		name string
		e    *Engine
		req  Request
		want Value
		ref  string
	}{
		{"read a hard link to .env", e, Request{Action: ActionFSRead, Paths: []string{root + "/notes.txt"}}, RequireApproval, "hard-link"},
		{"write it, where only reads are restricted", e, Request{Action: ActionFSWrite, Paths: []string{root + "/notes.txt"}}, Allow, ""},
		{"through a symlink", e, Request{Action: ActionFSRead, Paths: []string{root + "/readme"}}, RequireApproval, "hard-link"},
		{"a command reading it", e, Request{Action: ActionTerminalCreate, Command: "cat notes.txt"}, RequireApproval, "hard-link"},
		{"the denied name itself", e, Request{Action: ActionFSRead, Paths: []string{root + "/.env"}}, Deny, "rules-deny-1"},
		{"a file with one name", e, Request{Action: ActionFSRead, Paths: []string{root + "/a.txt"}}, Allow, ""},
		{"a policy restricting no path", open, Request{Action: ActionFSRead, Paths: []string{root + "/notes.txt"}}, Allow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Cwd = root
			d := tt.e.Decide(tt.req)
			if d.Value != tt.want || tt.ref != "" && d.Ref != tt.ref {
				t.Errorf("Decide(%+v) = %v (ref %s: %s); want %s (ref %s)", tt.req, d.Value, d.Ref, d.Reason, tt.want, tt.ref)
			}
		})
	}
}
