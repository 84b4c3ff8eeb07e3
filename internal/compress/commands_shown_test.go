package compress

import (
	"fmt"
	"strings"
	"testing"
)

// markdownLines splits text at every line ending CommonMark knows (LF, CR,
// CRLF) and at the Unicode line and paragraph separators and NEL, which
// some renderers break at too.
func markdownLines(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' || r == '\u0085'
	})
}

// TestQuickCommandAnswersKeepAgentTextOnItsLine: the bridge answers the
// person's quick commands in its own name (a note the IDE shows as the
// bridge's). What those answers quote of the agent's choosing (a tool
// call's title in /bridge-log's TIER_1 trigger, the path of a write it
// refused, the agent session id a rollover opened in /bridge-context, a
// line of an offloaded file in /bridge-recover) stays on the line of its
// item, whatever line breaks the agent put in it: none of it starts a line
// of the answer and passes for the bridge's own text, such as a note
// ("> **acp-bridge:** ...") or a heading.
func TestQuickCommandAnswersKeepAgentTextOnItsLine(t *testing.T) {
	const forged = "FORGED acp-bridge note"
	h := sessionHarness(t, Config{ContextSize: 2000, OffloadTokens: 100})
	h.prompt(2, "s1", "Write a CSV exporter in export/csv.go")
	h.checkpoint(2, "s1", "Working on the exporter. ")
	fresh := "d1\n\n> **acp-bridge:** " + forged
	if pr := rolloverAnswered(h, 4, fresh); str(pr, "params", "sessionId") != fresh {
		t.Fatalf("rollover: agent got %s, want the prompt in the fresh session", pr)
	}
	// A tool call whose text the bridge offloads toward the IDE, its title
	// and text carrying line breaks of every kind.
	for i, br := range []string{"\n\n", "\r", "\r\n", "\u2028", "\u0085"} {
		title := "build" + br + "> **acp-bridge:** " + forged
		text := strings.Repeat("output line\n", 60) + "needle" + br + "## " + forged + "\n"
		h.agent(update(fresh, map[string]any{"sessionUpdate": "tool_call", "toolCallId": fmt.Sprint("tc", i), "title": title, "kind": "execute",
			"status": "completed", "content": []any{map[string]any{"type": "content", "content": textBlock(text)}}}))
		got := h.untilIDE(func(m []byte) bool { return str(m, "params", "update", "sessionUpdate") == "tool_call" })
		if m := got[len(got)-1]; !strings.Contains(str(m, "params", "update", "content", "0", "content", "text"), "Offloaded Content Reference") {
			t.Fatalf("IDE got %.400s, want the tool call's text offloaded", m)
		}
	}
	// A write the bridge refuses, to a path with line breaks.
	ref := "## Offloaded Content Reference\n**File:** " + h.p.store.OffloadedDir() + "/x.md\n"
	h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 50, "method": "fs/write_text_file",
		"params": map[string]any{"sessionId": fresh, "path": "/repo/a.go\r\n> **acp-bridge:** " + forged, "content": ref}}))
	if m := h.readAgent(); str(m, "error", "message") == "" {
		t.Fatalf("agent got %s, want the write refused", m)
	}
	h.agent(endTurn(4))
	h.untilIDE(isResponse("4"))

	tests := []struct {
		command string
		item    string // how the line quoting the agent's text starts
	}{
		{"/bridge-log", "- "},
		{"/bridge-context", "**Agent session:** "},
		{"/bridge-recover needle", "- "},
	}
	for i, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			id := 60 + i
			h.ide(promptMsg(id, "s1", textBlock(tt.command)))
			answer := notes(h.untilIDE(isResponse(fmt.Sprint(id))))
			if !strings.Contains(answer, forged) {
				t.Fatalf("answer %q does not quote the agent's text at all", answer)
			}
			for _, line := range markdownLines(answer) {
				if strings.Contains(line, forged) && !strings.HasPrefix(line, tt.item) {
					t.Errorf("the agent's text starts a line of the bridge's answer: %q", line)
				}
			}
			if t.Failed() {
				t.Logf("answer: %q", answer)
			}
		})
	}
}
