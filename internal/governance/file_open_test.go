package governance

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipesDoNotHoldDecisions: a named pipe where the bridge reads a
// file to decide a request (an archive, a compressed file's header, a
// script file, a directory a glob lists, a git configuration) is never
// opened for a blocking read: every decision returns, and none allows
// what it could not read.
func TestNamedPipesDoNotHoldDecisions(t *testing.T) {
	root := tempTree(t, []string{"fifo", "repo/.git"}, []string{"x.txt", "repo/.git/HEAD"})
	for _, p := range []string{"fifo/p.gz", "fifo/p.zip", "fifo/p.tar", "fifo/s.sed", "fifo/k.cfg", "pipe", "repo/.git/config"} {
		if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: ['Edit(**/*.key)']\n")
	for _, tc := range []struct {
		line string
		read bool // the decision rests on reading the pipe: it may not allow
	}{
		{"gunzip -N fifo/p.gz", true}, {"gunzip -rN fifo", true}, {"unzip -o fifo/p.zip", true},
		{"unzip -o 'fifo/p*'", true}, {"tar xf fifo/p.tar", true}, {"tar xzf fifo/p.gz", true},
		{"sed -f fifo/s.sed x.txt", true}, {"curl -K fifo/k.cfg https://example.com", true},
		{"gunzip fifo/p.gz", false}, {"cat pipe/*", false}, {"git -C repo status", false}, {"cd repo && git add x", false},
	} {
		done := make(chan Decision, 1)
		go func() { done <- e.Decide(Request{Action: ActionTerminalCreate, Command: tc.line, Cwd: root}) }()
		select {
		case d := <-done:
			if tc.read && d.Value == Allow {
				t.Errorf("%s: allowed (%s); want a refusal or a question: the bridge could not read what it names", tc.line, d.Reason)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no decision after 10 s (a named pipe was opened for a blocking read)", tc.line)
		}
	}
}
