package audit

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAgentNameNotAnApproval: the BY column names an agent by the name it
// reported only when that name is a plain token that fits the column, so
// that the agent's name cannot put "approved: user:ide" under a request
// nobody answered.
func TestAgentNameNotAnApproval(t *testing.T) {
	for _, tc := range []struct {
		name, reported, by string
	}{
		{"plain token", "claude-code", "agent:claude-code"},
		{"space then approval", "claude approved: user:ide", "agent:x"},
		{"wraps into an approval", "claude" + strings.Repeat(" ", 30) + "approved: user:ide", "agent:x"},
		{"token too long for the column", "claude:" + strings.Repeat("a", 20) + ":approved:user:ide", "agent:x"},
		{"lookalike letter", "claudе", "agent:x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			writeLog(t, path, Options{Now: fixedClock(time.Second), RunID: "20261121T200000Z-00000009"}, []Event{
				{Actor: Actor{ID: "acp-bridge"}, Action: AgentInfoAction, Subject: Subject{Kind: "agent"},
					Input: map[string]any{"name": tc.reported, "version": "1"}},
				{Actor: Actor{ID: "agent:x", Role: "operator"}, Action: "terminal.create", Subject: Subject{Kind: "terminal", Ref: "rm -rf x", Path: "/w"},
					Policy: &Policy{Ref: "ask", Decision: DecisionRequireApproval}, Metadata: map[string]any{"session": "s1"}},
			})
			for _, wide := range []bool{false, true} {
				var b bytes.Buffer
				if err := WriteTimeline(&b, readLog(t, path), TimelineOptions{Wide: wide}); err != nil {
					t.Fatal(err)
				}
				out := b.String()
				// The run's heading quotes the name as reported; the rows
				// are under the column titles.
				rows := out[strings.Index(out, "TIME "):]
				if strings.Contains(rows, "approved: user") || strings.Contains(rows, "approved:user") {
					t.Errorf("wide %v: a row reads as approved by a person:\n%s", wide, out)
				}
				var row string
				for _, l := range strings.Split(out, "\n") {
					if strings.Contains(l, "terminal.create") {
						row = l
					}
				}
				if f := strings.Fields(row); len(f) < 6 || f[5] != tc.by {
					t.Errorf("wide %v: BY is not %q:\n%s", wide, tc.by, out)
				}
			}
		})
	}
}
