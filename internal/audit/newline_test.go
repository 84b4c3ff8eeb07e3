package audit

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCommandNewlineShown: a command holding a newline is two commands to
// a shell ("echo ok", then "rm -rf ~"). The views folded white space into
// one space and showed it as "echo ok rm -rf ~", one echo; the newline is
// shown as \n, in a terminal's command line and a tool call's arguments,
// and a run of spaces is still one.
func TestCommandNewlineShown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	agent := Actor{ID: "agent:x", Role: "operator"}
	allow := &Policy{Ref: "allow-echo", Decision: DecisionAllow}
	cmd := "echo ok\nrm -rf ~"
	writeLog(t, path, Options{Now: fixedClock(time.Second)}, []Event{
		{Actor: agent, Action: "terminal.create", Subject: Subject{Kind: "terminal", Ref: cmd, Path: "/w"}, Policy: allow,
			Metadata: map[string]any{"session": "s"}},
		{Actor: agent, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "t1"}, Policy: allow,
			Metadata: map[string]any{"session": "s", "toolCall": ToolCall{Kind: "tool-call", ToolCallID: "t1", Tool: "Bash",
				Arguments: map[string]any{"command": "echo   spaced\r\nrm -rf ~"}}}},
	})
	var b bytes.Buffer
	if err := WriteTimeline(&b, readLog(t, path), TimelineOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`echo ok\nrm -rf ~ (in /w)`, `Bash echo spaced\r\nrm -rf ~`} {
		if !strings.Contains(out, want) {
			t.Errorf("the timeline lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "echo ok rm -rf ~") || strings.Contains(out, "spaced rm") {
		t.Errorf("the timeline shows the two commands as one:\n%s", out)
	}
}
