package audit

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/golden"
	"github.com/acp-bridge/acp-bridge/internal/terminaltest"
	"github.com/google/go-cmp/cmp"
)

// viewsLog writes two bridge runs: the first with the agent's agentInfo,
// lifecycle records, a read blocked twice over (a policy.violation of the
// agent's tool call and the fs.read it then asked the IDE for), a long
// rule; the second loads the first session again.
func viewsLog(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	clock := fixedClock(1500 * time.Millisecond)
	bridge := Actor{ID: "acp-bridge", Role: "system"}
	agent := Actor{ID: "agent:npx", Role: "operator"}
	user := Actor{ID: "user:ide", Role: "user"}
	sess := func(id string) map[string]any { return map[string]any{"session": id} }
	lifecycle := func(sid, from, to string) Event {
		return Event{Actor: agent, Action: "operator.lifecycle", Subject: Subject{Kind: "operator", Ref: sid},
			Input: map[string]any{"from": from, "to": to}, Metadata: sess(sid)}
	}
	env := "/work/project/.env"
	violation := func(id string) Event {
		return Event{Actor: agent, Action: "policy.violation", Subject: Subject{Kind: "tool-call", Ref: id, Path: env},
			Policy: &Policy{Ref: "rules.deny[0]: Read(**/.env) and every file named like a secret", Decision: DecisionDeny},
			Metadata: map[string]any{"session": "sess-1", "reason": "secrets stay on this machine",
				"toolCall": ToolCall{Kind: "tool-call", Session: "sess-1", ToolCallID: id, Tool: "Read", Arguments: map[string]any{"file_path": env}}}}
	}
	fsRead := Event{Actor: agent, Action: "fs.read", Subject: Subject{Kind: "file", Path: env},
		Policy:   &Policy{Ref: "rules.deny[0]: Read(**/.env) and every file named like a secret", Decision: DecisionDeny},
		Metadata: map[string]any{"session": "sess-1", "reason": "secrets stay on this machine"}}
	run1 := []Event{
		{Actor: bridge, Action: "bridge.start", Subject: Subject{Kind: "bridge", Ref: "acp-bridge"},
			Input: map[string]any{"agent": []any{"npx", "@zed-industries/claude-code-acp"}}},
		{Actor: bridge, Action: AgentInfoAction, Subject: Subject{Kind: "agent", Ref: "claude-code-acp"},
			Input: map[string]any{"name": "claude-code-acp", "title": "Claude Code", "version": "0.23.0"}},
		{Actor: bridge, Action: "session.new", Subject: Subject{Kind: "session", Ref: "sess-1", Path: "/work/project"},
			Policy: &Policy{Ref: "workspace", Decision: DecisionAllow}, Metadata: sess("sess-1")},
		lifecycle("sess-1", "", "invoked"),
		{Actor: user, Action: "session.prompt", Subject: Subject{Kind: "session", Ref: "sess-1"}, Input: "Look at the config", Metadata: sess("sess-1")},
		lifecycle("sess-1", "invoked", "running"),
		violation("toolu_01"),
		fsRead,
		lifecycle("sess-1", "running", "interrupted"),
		{Actor: user, Action: "session.prompt", Subject: Subject{Kind: "session", Ref: "sess-1"}, Input: "Try again", Metadata: sess("sess-1")},
		violation("toolu_02"),
		{Actor: agent, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "toolu_03"},
			Policy: &Policy{Ref: "ask-edits", Decision: DecisionRequireApproval},
			Metadata: map[string]any{"session": "sess-1", "reason": "edits are asked",
				"toolCall": ToolCall{Kind: "tool-call", Session: "sess-1", ToolCallID: "toolu_03", Tool: "Edit", Arguments: map[string]any{"path": "src/sum.js"}}}},
		{Actor: Actor{ID: "user:alice", Role: "approver"}, Action: "approval.recorded", Subject: Subject{Kind: "tool-call", Ref: "toolu_03"},
			Policy: &Policy{Ref: "ask-edits", Decision: DecisionRequireApproval},
			Metadata: map[string]any{"session": "sess-1", "toolCall": ToolCall{Kind: "tool-call", Session: "sess-1", ToolCallID: "toolu_03", Tool: "Edit",
				Arguments: map[string]any{"path": "src/sum.js"}, Approval: "user:alice"}}},
		{Actor: bridge, Action: "session.end", Subject: Subject{Kind: "session", Ref: "sess-1"}, Metadata: sess("sess-1")},
		{Actor: bridge, Action: "bridge.stop", Subject: Subject{Kind: "bridge", Ref: "acp-bridge"}},
	}
	run2 := []Event{
		{Actor: bridge, Action: "bridge.start", Subject: Subject{Kind: "bridge", Ref: "acp-bridge"},
			Input: map[string]any{"agent": []any{"gemini", "--acp"}}},
		{Actor: user, Action: "session.prompt", Subject: Subject{Kind: "session", Ref: "sess-1"}, Input: "Carry on", Metadata: sess("sess-1")},
		{Actor: Actor{ID: "agent:gemini", Role: "operator"}, Action: "terminal.create", Subject: Subject{Kind: "terminal", Ref: "npm test", Path: "/work/project"},
			Policy: &Policy{Ref: "allow-tests", Decision: DecisionAllow}, Metadata: sess("sess-1")},
		{Actor: bridge, Action: "bridge.stop", Subject: Subject{Kind: "bridge", Ref: "acp-bridge"}},
	}
	writeLog(t, path, Options{Now: clock, RunID: "20261121T200000Z-00000001"}, run1)
	writeLog(t, path, Options{Now: clock, RunID: "20261121T210000Z-00000002"}, run2)
	return path
}

// TestSessionsCountDecisionsOnce checks the counts behind the headings: a
// read refused as a violation and again as an fs.read is one denial; the
// same read refused in a later turn is another; the session loaded again
// by a later run is a row of its own, with that run's agent.
func TestSessionsCountDecisionsOnce(t *testing.T) {
	entries := readLog(t, viewsLog(t))
	got := Sessions(entries)
	type row struct {
		ID, Run, Agent                           string
		Events, Prompts, Calls, Denied, Approved int
	}
	var rows []row
	for _, s := range got {
		rows = append(rows, row{s.ID, s.Run, s.Agent, s.Events, s.Prompts, s.ToolCalls, s.Denials, s.Approvals})
	}
	want := []row{
		{"sess-1", "20261121T200000Z-00000001", "Claude Code (claude-code-acp) 0.23.0", 12, 2, 3, 2, 1},
		{"sess-1", "20261121T210000Z-00000002", "agent:gemini", 2, 1, 0, 0, 0},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// hostileLog writes records whose agent-chosen strings try to forge rows
// and colours: escape sequences, CR, LF, C1 CSI, bidi overrides, line
// separators, in a session id, a tool title and arguments, a path, an
// actor, a rule and a reason.
func hostileLog(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	const forge = "FORGEDROW 12:00:00.000 99 tool.call allow"
	sid := "s1\x1b[2J\nFORGEDROW"
	evs := []Event{
		{Actor: Actor{ID: "user:ide"}, Action: "session.prompt", Subject: Subject{Kind: "session", Ref: sid}, Input: "hi\r\n" + forge, Metadata: map[string]any{"session": sid}},
		{Actor: Actor{ID: "agent:x\x1b[32m\n" + forge, Role: "operator"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "tc\u009b2J"},
			Policy: &Policy{Ref: "deny-rm\n" + forge, Decision: DecisionDeny},
			Metadata: map[string]any{"session": sid, "reason": "no\u2028" + forge, "rule": "Bash(rm:*)\x1b[0m\r" + forge,
				"toolCall": ToolCall{Kind: "tool-call", Session: sid, ToolCallID: "tc\u009b2J", Tool: "rm\x1b[32m ok\n" + forge,
					Arguments: map[string]any{"command": "rm -rf x\u202e\u2029" + forge}, Approval: "user:\x1b[32mapproved\n" + forge}}},
		{Actor: Actor{ID: "agent:x"}, Action: "fs.read", Subject: Subject{Kind: "file", Path: "/w/.env\n" + forge + "\x7f\x00"},
			Policy: &Policy{Ref: "deny-env", Decision: DecisionDeny}, Metadata: map[string]any{"session": "\u202e" + forge}},
		// Text cut where a column wraps would start a line of its own.
		{Actor: Actor{ID: "agent:" + strings.Repeat("a", 16) + " " + forge, Role: "approver"}, Action: "tool.call",
			Subject: Subject{Kind: "tool-call", Ref: "tc0"}, Policy: &Policy{Ref: "ask " + strings.Repeat("c", 18) + " " + forge, Decision: DecisionRequireApproval},
			Metadata: map[string]any{"session": "s-" + strings.Repeat("b", 34) + " " + forge}},
		{Actor: Actor{ID: "acp-bridge"}, Action: AgentInfoAction, Subject: Subject{Kind: "agent"},
			Input: map[string]any{"name": "evil\x1b[31m\n" + forge, "version": "1\u200b"}},
	}
	writeLog(t, path, Options{Now: fixedClock(time.Second), RunID: "20261121T200000Z-00000009"}, evs)
	return path
}

// TestViewsHostile renders the hostile records in every view and option,
// and checks nothing reaches the terminal as a control.
func TestViewsHostile(t *testing.T) {
	entries := readLog(t, hostileLog(t))
	for _, opts := range []TimelineOptions{{}, {All: true}, {Wide: true, All: true}, {Color: true, All: true}} {
		var b bytes.Buffer
		if err := WriteTimeline(&b, entries, opts); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if opts.Color {
			// The only escapes are the decision colours.
			for _, c := range []string{colorRed, colorGreen, colorYellow, colorReset} {
				out = strings.ReplaceAll(out, c, "")
			}
		}
		terminaltest.CheckPrintable(t, "timeline", out, "FORGEDROW")
		if opts.Wide {
			golden.Check(t, "testdata/views-hostile.golden", b.Bytes())
		}
	}
	var b bytes.Buffer
	if err := WriteSessions(&b, Sessions(entries), time.UTC); err != nil {
		t.Fatal(err)
	}
	terminaltest.CheckPrintable(t, "sessions", b.String(), "FORGEDROW")
	js, _ := json.Marshal(Sessions(entries))
	if bytes.ContainsRune(js, 0x1b) {
		t.Errorf("sessions JSON holds a raw ESC: %s", js)
	}
}
