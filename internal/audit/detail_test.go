package audit

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDetailKeepsTheReason: DETAIL is cut to its column, and the agent's
// text is cut first, so that a long command line carrying its own
// "— allowed by ..." never pushes the bridge's reason out of view.
func TestDetailKeepsTheReason(t *testing.T) {
	const reason = `running "rm -rf build": denied by Bash(rm:*)`
	for _, cmd := range []string{
		"rm -rf build",
		"rm -rf build # — allowed by the person (approved: user:ide)" + strings.Repeat(" ", 80) + "x",
		strings.Repeat("rm -rf build; ", 20),
	} {
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		writeLog(t, path, Options{Now: fixedClock(time.Second), RunID: "20261121T200000Z-00000009"}, []Event{
			{Actor: Actor{ID: "agent:x", Role: "operator"}, Action: "terminal.create", Subject: Subject{Kind: "terminal", Ref: cmd, Path: "/w"},
				Policy: &Policy{Ref: "deny", Decision: DecisionDeny}, Metadata: map[string]any{"session": "s1", "reason": reason}},
		})
		for _, width := range []int{64, 100} {
			var b bytes.Buffer
			if err := WriteTimeline(&b, readLog(t, path), TimelineOptions{Width: width}); err != nil {
				t.Fatal(err)
			}
			var row string
			for _, l := range strings.Split(b.String(), "\n") {
				if strings.Contains(l, "terminal.create") {
					row = l
				}
			}
			// At least the reason's first words, whatever the command's length.
			if !strings.Contains(row, "— running \"rm -rf") {
				t.Errorf("width %d, command %.30q: the reason is not in view:\n%s", width, cmd, row)
			}
			if len(cmd) < 20 && !strings.Contains(row, reason) {
				t.Errorf("width %d: a short command's reason is cut:\n%s", width, row)
			}
		}
	}
}
