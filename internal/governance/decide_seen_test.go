package governance

import (
	"fmt"
	"strings"
	"testing"
)

// TestDecideReportsEachCommandOnce: a command a line runs more than once
// is one subject of the decision, however many commands the line runs
// (the reported keys are a list for a few and a set past that).
func TestDecideReportsEachCommandOnce(t *testing.T) {
	cwd := t.TempDir()
	e := soakEngine(t, cwd)
	for _, distinct := range []int{1, 3, 16, 17, 40} {
		var cmds []string
		for i := range 3 * distinct {
			cmds = append(cmds, fmt.Sprintf("echo n%d", i%distinct))
		}
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: strings.Join(cmds, "; "), Cwd: cwd, Roots: []string{cwd}})
		seen := map[string]int{}
		for _, s := range d.Subjects {
			if strings.HasPrefix(s.What, "running ") {
				seen[s.What]++
			}
		}
		if len(seen) != distinct {
			t.Errorf("%d distinct commands, each run three times: %d reported (%v)", distinct, len(seen), seen)
		}
		for what, n := range seen {
			if n != 1 {
				t.Errorf("%d distinct commands: %s reported %d times", distinct, what, n)
			}
		}
	}
}
