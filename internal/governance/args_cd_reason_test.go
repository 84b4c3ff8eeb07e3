package governance

import (
	"strings"
	"testing"
)

// TestChangeDirReason: a line that changes directory outside the workspace
// has what it names afterwards decided there, and the reason the person
// reads says where the command runs: "cd OUT && touch x" creates OUT/x,
// denied as a write outside the workspace is.
func TestChangeDirReason(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{"a.txt"})
	out := t.TempDir()
	p := testPolicy(t, "  default: ask\n  allow:\n    - Read\n    - Edit(./**)\n    - Bash(touch:*)\n    - Bash(cd:*)\n    - Bash(pushd:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, line := range []string{"cd " + out + " && touch new.txt", "pushd " + out + "; touch new.txt"} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root})
		if d.Value != Deny {
			t.Errorf("Decide(%q) = %v; want deny", line, d.Value)
		}
		if !strings.Contains(d.Reason, "run in "+out) || !strings.Contains(d.Reason, "writing "+out+"/new.txt") {
			t.Errorf("Decide(%q).Reason = %q; want it to say the command runs in %s and writes %s/new.txt", line, d.Reason, out, out)
		}
	}
	// Where the line goes is not known: asked, and the reason says so.
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: "cd - && touch new.txt", Cwd: root})
	if d.Value != RequireApproval || !strings.Contains(d.Reason, "not known") {
		t.Errorf("cd - && touch new.txt = %v (%s); want it asked about, the directory not known", d.Value, d.Reason)
	}
	// Inside the workspace a cd is no question.
	if d := e.Decide(Request{Action: ActionTerminalCreate, Command: "cd sub && touch new.txt", Cwd: root}); d.Value != Allow {
		t.Errorf("cd sub && touch new.txt = %v (%s); want allow", d.Value, d.Reason)
	}
}
