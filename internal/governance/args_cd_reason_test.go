package governance

import (
	"strings"
	"testing"
)

// TestChangeDirReason: a line that changes directory outside the workspace
// is asked about, and the reason the person reads says the line changes
// directory there and that what it names afterwards is not known, not that
// it reads the directory: approving "cd OUT && touch x" creates OUT/x.
func TestChangeDirReason(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{"a.txt"})
	out := t.TempDir()
	p := testPolicy(t, "  default: ask\n  allow:\n    - Read\n    - Edit(./**)\n    - Bash(touch:*)\n    - Bash(cd:*)\n    - Bash(pushd:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, line := range []string{"cd " + out + " && touch new.txt", "pushd " + out + "; touch new.txt"} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root})
		if d.Value == Allow {
			t.Errorf("Decide(%q) = allow; want it asked about or denied", line)
		}
		if !strings.Contains(d.Reason, "changing directory to "+out) || !strings.Contains(d.Reason, "not known") {
			t.Errorf("Decide(%q).Reason = %q; want it to say the line changes directory to %s and what it names there is not known", line, d.Reason, out)
		}
	}
	// Inside the workspace a cd is no question.
	if d := e.Decide(Request{Action: ActionTerminalCreate, Command: "cd sub && touch new.txt", Cwd: root}); d.Value != Allow {
		t.Errorf("cd sub && touch new.txt = %v (%s); want allow", d.Value, d.Reason)
	}
}
