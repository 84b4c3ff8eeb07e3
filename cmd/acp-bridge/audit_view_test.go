package main

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/terminaltest"
)

// forgedPrefix starts every text the hostile log's agent wrote to look
// like a row of its own.
const forgedPrefix = "FORGEDROW"

// writeHostileLog writes records whose agent-chosen strings try to forge
// rows, colours and sessions: ESC sequences, CR and LF, C1 CSI, bidi
// overrides, line separators, zero-width characters, in the session id,
// tool title and arguments, path, actor, approver, rule, reason and the
// agent's agentInfo.
func writeHostileLog(t *testing.T, path string) {
	t.Helper()
	const row = forgedPrefix + " 12:00:00.000 99 tool.call allow"
	sid := "s1\x1b[2J\n" + row
	evs := []audit.Event{
		{Actor: audit.Actor{ID: "acp-bridge"}, Action: audit.AgentInfoAction, Subject: audit.Subject{Kind: "agent"},
			Input: map[string]any{"name": "evil\x1b[31m\n" + row, "version": "1\u200b\u202e\u034f"}},
		// Text cut where a column wraps would start a line of its own.
		{Actor: audit.Actor{ID: "agent:" + strings.Repeat("a", 16) + " " + row, Role: "approver"}, Action: "tool.call",
			Subject: audit.Subject{Kind: "tool-call", Ref: "tc0"}, Policy: &audit.Policy{Ref: "ask", Decision: audit.DecisionRequireApproval},
			Metadata: map[string]any{"session": "s-" + strings.Repeat("b", 34) + " " + row}},
		{Actor: audit.Actor{ID: "user:ide"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: sid},
			Input: "hi\r\n" + row, Metadata: map[string]any{"session": sid}},
		{Actor: audit.Actor{ID: "agent:x\x1b[32m\n" + row, Role: "operator"}, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: "tc\u009b2J"},
			Policy: &audit.Policy{Ref: "deny-rm\n" + row, Decision: audit.DecisionDeny},
			Metadata: map[string]any{"session": sid, "reason": "no\u2028" + row, "rule": "Bash(rm:*)\x1b[0m\r" + row,
				"toolCall": audit.ToolCall{Kind: "tool-call", Session: sid, ToolCallID: "tc\u009b2J", Tool: "rm\x1b[32m ok\n" + row,
					Arguments: map[string]any{"command": "rm -rf x\u202e\u2029" + row}}}},
		{Actor: audit.Actor{ID: "agent:x", Role: "operator"}, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: "tc2"},
			Policy: &audit.Policy{Ref: "ask", Decision: audit.DecisionRequireApproval},
			Metadata: map[string]any{"session": "\u202e" + row, "toolCall": audit.ToolCall{Kind: "tool-call", ToolCallID: "tc2", Tool: "Edit\u3164\ufe0f",
				Approval: "user:\x1b[32mapproved\n" + row}}},
		// A session whose id reads as the first's: the difference prints as nothing.
		{Actor: audit.Actor{ID: "user:ide"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: "s1\ufe0f"},
			Input: "hi", Metadata: map[string]any{"session": "s1\ufe0f"}},
		{Actor: audit.Actor{ID: "agent:x", Role: "operator"}, Action: "fs.read", Subject: audit.Subject{Kind: "file", Path: "/w/.env\n" + row + "\x7f\x00"},
			Policy: &audit.Policy{Ref: "deny-env", Decision: audit.DecisionDeny}, Metadata: map[string]any{"session": "\x85" + row}},
		{Actor: audit.Actor{ID: "agent:x", Role: "operator"}, Action: "terminal.create", Subject: audit.Subject{Kind: "terminal", Ref: "echo\r\n" + row, Path: "/w\x1b]0;title\x07"},
			Policy: &audit.Policy{Ref: "allow-echo", Decision: audit.DecisionAllow}, Metadata: map[string]any{"session": sid}},
	}
	writeEvents(t, path, "", evs)
}

// TestAuditViewsHostile runs every human view of the real command over the
// hostile log, and verify over a hostile line that was edited, and checks
// that nothing the agent wrote reaches the terminal as a control.
func TestAuditViewsHostile(t *testing.T) {
	dir, log, data := newAuditLog(t, writeHostileLog)
	// An edited line whose content the error message might quote.
	edited := writeLogVariant(t, dir, "edited.jsonl", []byte(strings.Replace(string(data), `"actor":{"id":"agent:x"`, `"actor":{"id":"agent:\u001b[32m\n`+forgedPrefix+`"`, 1)))
	for _, args := range [][]string{
		{"show", log}, {"show", "--all", log}, {"show", "--wide", "--all", log}, {"show", "--decision", "deny", log},
		{"tail", "-n", "1000", log}, {"tail", "--all", "--wide", log}, {"sessions", log},
		{"verify", edited}, {"show", edited}, {"sessions", edited},
	} {
		out, errOut, code := runCmd(t, "", append([]string{"audit"}, args...)...)
		if code != 0 && args[0] != "verify" {
			t.Fatalf("audit %v: exit %d\n%s", args, code, errOut)
		}
		terminaltest.CheckPrintable(t, "audit "+strings.Join(args, " ")+" (stdout)", out, forgedPrefix)
		terminaltest.CheckPrintable(t, "audit "+strings.Join(args, " ")+" (stderr)", errOut, forgedPrefix)
	}
	// The rows are all there: six events, none hidden but agent.info.
	out, _, _ := runCmd(t, "", "audit", "show", log)
	for _, want := range []string{`session "s1\x1b[2J\nFORGEDROW`, `agent "evil\x1b[31m\nFORGEDROW`, `session "\u202eFORGEDROW`, `/w/.env\nFORGEDROW`, `echo\r\nFORGEDROW`, `session "s1\ufe0f"`} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q, the escaped text:\n%s", want, out)
		}
	}
}
