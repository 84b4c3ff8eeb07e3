package governance

import (
	"path/filepath"
	"testing"
)

// TestHooksPathReadsThenWrites: a decision that changes nothing may take
// the repository configuration's protections as kept (they protect from
// changes only), but a change decided after it, in a later decision or in
// the same command line after a read, sees the configuration as it is.
func TestHooksPathReadsThenWrites(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	config := filepath.Join(root, ".git/config")
	write := func(text string) { t.Helper(); writeFile(t, config, text) }
	write("[core]\n\thooksPath = one\n")
	if d := e.Decide(Request{Action: ActionFSWrite, Paths: []string{root + "/two/pre-commit"}, Cwd: root}); d.Value != Allow {
		t.Fatalf("write two/pre-commit under hooksPath one: %v (%s)", d.Value, d.Reason)
	}
	write("[core]\n\thooksPath = two\n")
	if d := e.Decide(Request{Action: ActionFSRead, Paths: []string{root + "/two/pre-commit"}, Cwd: root}); d.Value != Allow {
		t.Fatalf("read two/pre-commit: %v (%s)", d.Value, d.Reason)
	}
	if d := e.Decide(Request{Action: ActionFSWrite, Paths: []string{root + "/two/pre-commit"}, Cwd: root}); d.Value != Deny {
		t.Errorf("write two/pre-commit after a read, hooksPath two: %v (%s)", d.Value, d.Reason)
	}
	write("[core]\n\thooksPath = three\n")
	line := "cat two/pre-commit; echo x > three/pre-commit"
	if d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root}); d.Value != Deny {
		t.Errorf("%q, hooksPath three: %v (%s)", line, d.Value, d.Reason)
	}
}
