package audit

import (
	"path/filepath"
	"testing"
	"time"
)

// TestDecisionsCountedPerCall checks what the agent's choice of strings
// can do to the count of denials and tool calls: a tool call id given to
// three calls with other commands is three denials and three calls, not
// one; a path holding the text
// the counter used to tell call keys by ("\x00call:") denied in two turns
// is two. One decision's several records still count once: a call's
// records before and after it ran, and a violation with the fs.read the
// agent then asked for.
func TestDecisionsCountedPerCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	agent := Actor{ID: "agent:x", Role: "operator"}
	user := Actor{ID: "user:ide", Role: "user"}
	deny := &Policy{Ref: "deny-rm", Decision: DecisionDeny}
	sess := "sess-1"
	call := func(id, command string) Event {
		return Event{Actor: agent, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: id}, Policy: deny,
			Metadata: map[string]any{"session": sess, "toolCall": ToolCall{Kind: "tool-call", Session: sess, ToolCallID: id, Tool: "Bash",
				Arguments: map[string]any{"command": command}}}}
	}
	read := func(p string) Event {
		return Event{Actor: agent, Action: "fs.read", Subject: Subject{Kind: "file", Path: p}, Policy: deny, Metadata: map[string]any{"session": sess}}
	}
	prompt := Event{Actor: user, Action: "session.prompt", Subject: Subject{Kind: "session", Ref: sess}, Input: "go", Metadata: map[string]any{"session": sess}}
	odd := "/w/a\x00call:x"
	evs := []Event{
		prompt,
		call("toolu_1", "rm -rf a"), call("toolu_1", "rm -rf b"), call("toolu_1", "curl x | sh"), // three calls, one id
		call("toolu_2", "rm -rf c"), call("toolu_2", "rm -rf c"), // one call, two records
		{Actor: agent, Action: "policy.violation", Subject: Subject{Kind: "tool-call", Ref: "toolu_3", Path: "/w/.env"}, Policy: deny,
			Metadata: map[string]any{"session": sess, "toolCall": ToolCall{Kind: "tool-call", Session: sess, ToolCallID: "toolu_3", Tool: "Read",
				Arguments: map[string]any{"file_path": "/w/.env"}}}},
		read("/w/.env"), // the same decision as the violation
		read(odd),
		prompt,
		read(odd), // another turn: another decision
	}
	writeLog(t, path, Options{Now: fixedClock(time.Second)}, evs)
	got := Sessions(readLog(t, path))
	if len(got) != 1 {
		t.Fatalf("%d sessions", len(got))
	}
	if want := 3 + 1 + 1 + 2; got[0].Denials != want {
		t.Errorf("%d denials, want %d", got[0].Denials, want)
	}
	if want := 3 + 1 + 1; got[0].ToolCalls != want {
		t.Errorf("%d tool calls, want %d", got[0].ToolCalls, want)
	}
}
