package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/golden"
	"github.com/google/go-cmp/cmp"
)

// refusalLog writes the answers a person gives, as the bridge records
// them: to a permission request of the agent's (metadata.approved, the
// option chosen as output), asked twice about one call and refused both
// times, and approved for another; to a question of the bridge's own
// about a file write (output.approved), refused and approved; and refusals the bridge made for
// the person (an approval given to what the call said before it changed,
// a question that could not be asked). A tool call whose arguments say
// "approved": false is no answer.
func refusalLog(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	agent := Actor{ID: "agent:claude-code-acp", Role: "operator"}
	user := Actor{ID: "user:ide", Role: "approver"}
	ask := &Policy{Ref: "rules-ask-1", Decision: DecisionRequireApproval}
	mirror := func(id string, args map[string]any) ToolCall {
		return ToolCall{Kind: "tool-call", Session: "sess-1", ToolCallID: id, Tool: "edit", Arguments: args}
	}
	answer := func(id string, approved bool, out map[string]any) Event {
		tc := mirror(id, map[string]any{"path": "/w/" + id})
		if approved {
			tc.Approval = "user:ide (allow_once allow)"
		}
		return Event{Actor: user, Action: "approval.recorded", Subject: Subject{Kind: "tool-call", Ref: id}, Output: out, Policy: ask,
			Metadata: map[string]any{"session": "sess-1", "approved": approved, "rule": "require-approval Edit", "toolCall": tc}}
	}
	reject := map[string]any{"outcome": "selected", "optionId": "reject", "optionKind": "reject_once"}
	evs := []Event{
		{Actor: user, Action: "session.prompt", Subject: Subject{Kind: "session", Ref: "sess-1"}, Input: "edit the files", Metadata: map[string]any{"session": "sess-1"}},
		{Actor: agent, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "call_args"}, Input: map[string]any{"approved": false},
			Metadata: map[string]any{"session": "sess-1", "approved": false, "toolCall": mirror("call_args", map[string]any{"approved": false})}},
		answer("call_a", false, reject),
		answer("call_a", false, map[string]any{"outcome": "cancelled"}),
		answer("call_b", true, map[string]any{"outcome": "selected", "optionId": "allow", "optionKind": "allow_once"}),
		answer("call_c", false, map[string]any{"outcome": "selected", "optionId": "allow", "optionKind": "allow_once",
			"stale": "the tool call changed after the person was asked"}),
		{Actor: user, Action: "approval.recorded", Subject: Subject{Kind: "file", Path: "/w/notes.txt"}, Policy: ask,
			Output:   map[string]any{"approved": false, "approver": "user:ide"},
			Metadata: map[string]any{"session": "sess-1", "stage": "fs.write", "shownTitle": "write /w/notes.txt"}},
		{Actor: user, Action: "approval.recorded", Subject: Subject{Kind: "file", Path: "/w/todo.txt"}, Policy: ask,
			Output:   map[string]any{"approved": true, "approver": "user:ide"},
			Metadata: map[string]any{"session": "sess-1", "stage": "fs.write", "shownTitle": "write /w/todo.txt"}},
		{Actor: user, Action: "approval.recorded", Subject: Subject{Kind: "terminal", Ref: "make"}, Policy: ask,
			Output:   map[string]any{"approved": false, "approver": "", "error": "the session's turn was cancelled"},
			Metadata: map[string]any{"session": "sess-1", "stage": "terminal.create", "shownTitle": "make"}},
	}
	writeLog(t, path, Options{Now: fixedClock(time.Second), RunID: "20261121T200000Z-00000003"}, evs)
	return path
}

// TestRefusalsShownAndCounted checks that a person's refusal is said as
// such on its row and counted in the session's heading and in the
// sessions table, once per tool call however often it was asked, and
// that a refusal the bridge made for the person is neither counted nor
// shown as theirs.
func TestRefusalsShownAndCounted(t *testing.T) {
	entries := readLog(t, refusalLog(t))
	var b bytes.Buffer
	if err := WriteTimeline(&b, entries, TimelineOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/views-refusals.golden", b.Bytes())
	out := b.String()
	if !strings.Contains(out, "2 approved by a person, 2 refused by a person, 0 denied") {
		t.Errorf("the heading does not count the person's two approvals and two refusals:\n%s", out)
	}
	want := []string{"refused: user:ide", "refused: user:ide", "approved: user:ide", "refused: acp-bridge", "refused: user:ide", "approved: user:ide", "refused: acp-bridge"}
	var got []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "approval.recorded") {
			for _, w := range want {
				if strings.Contains(line, w) {
					got = append(got, w)
					break
				}
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("who answered, row by row (-want +got):\n%s\n%s", diff, out)
	}
	b.Reset()
	if err := WriteSessions(&b, Sessions(entries), time.UTC); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if head, row := strings.Fields(lines[0]), strings.Fields(lines[1]); head[len(head)-3] != "APPROVED" || row[len(row)-3] != "2" ||
		head[len(head)-2] != "REFUSED" || row[len(row)-2] != "2" {
		t.Errorf("the sessions table does not count 2 approved and 2 refused:\n%s", b.String())
	}
	// The index reads the same answers as the full reading.
	raw, err := os.ReadFile(entries[0].File)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSuffix(raw, []byte("\n")), []byte("\n")) {
		full, ok1 := ParseEntry(line)
		brief, ok2 := ParseEntryBrief(line)
		full.Raw, full.Output, full.Metadata = nil, nil, nil
		if full.ToolCall != nil {
			full.ToolCall.Result, full.ToolCall.Error = nil, nil
		}
		if diff := cmp.Diff(full, brief); diff != "" || ok1 != ok2 {
			t.Errorf("ParseEntryBrief reads %s otherwise than ParseEntry (-full +brief):\n%s", line, diff)
		}
	}
}
