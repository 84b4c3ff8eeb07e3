package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/otelexport"
	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// catLinesAgent is an ACP agent in sh that answers initialize and
// session/new (session s1) and answers the prompt with id 2 after writing
// the lines of the file $1.
const catLinesAgent = `while IFS= read -r l; do
  case "$l" in
  *'"method":"initialize"'*) echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"probe","version":"1"}}}';;
  *'"method":"session/new"'*) echo '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}';;
  *'"id":2,'*) cat "$1"; echo '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}';;
  esac
done`

// TestOTLPTracesShowEveryRefusal: a hostile agent's tool calls reach a
// real collector as spans in which every deny the audit log holds is a
// decision event, on a span of the call's id with the rule that denied
// it: one that reuses the id of a call that already completed (first
// "echo ok", then "rm -rf x"), and one announced after thousands of calls
// the agent left open.
func TestOTLPTracesShowEveryRefusal(t *testing.T) {
	col := otelcoltest.Start(t)
	t.Setenv("TRACEPARENT", "")
	dir, ws := workspace(t)
	policy := writePolicy(t, dir, "  deny: [Bash(rm:*)]\n  allow: [Bash(echo:*)]\n")
	call := func(id, command, status string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"` + id +
			`","title":"` + command + `","kind":"execute","status":"` + status + `","rawInput":{"command":"` + command + `"}}}}`
	}
	lines := []string{call("tc-reused", "echo ok", "completed"), call("tc-reused", "rm -rf x", "pending")}
	for i := range 4100 {
		lines = append(lines, call("tc-open-"+strconv.Itoa(i), "echo open", "pending"))
	}
	lines = append(lines, call("tc-late", "rm -rf y", "pending"))
	script := filepath.Join(dir, "lines.jsonl")
	if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "audit", "audit.jsonl")
	// The collector prints every record it receives, and thousands of
	// spans and audit records take it more than the default 5 s to take
	// in on a busy machine: the bridge waits for it at exit here, so that
	// a span missing below was never sent, not sent too late.
	ide := startBridge(t, "--policy", policy, "--audit", logFile, "--workspace-root", ws, "--adapter", "none",
		"--otlp-endpoint", col.Endpoint(), "--otlp-traces", "--otlp-flush-timeout", "2m", "--", "sh", "-c", catLinesAgent, "sh", script)
	for i, line := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + ws + `","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
	} {
		ide.Send(line)
		ide.Response(strconv.Itoa(i))
	}
	if err := ide.Wait(); err != nil {
		t.Fatalf("bridge: %v (stderr: %s)", err, ide.Stderr())
	}
	if strings.Contains(ide.Stderr(), "did not reach the collector") {
		t.Fatalf("the bridge dropped spans at exit: %s", ide.Stderr())
	}
	entries, err := audit.ReadEntries(logFile)
	if err != nil {
		t.Fatal(err)
	}
	type refusal struct{ id, rule string }
	want := map[refusal]bool{}
	for i := range entries {
		e := &entries[i]
		if e.Decision() == audit.DecisionDeny && e.ToolCall != nil && e.ToolCall.ToolCallID != "" {
			want[refusal{e.ToolCall.ToolCallID, e.PolicyRule}] = true
		}
	}
	for _, id := range []string{"tc-reused", "tc-late"} {
		found := false
		for r := range want {
			found = found || r.id == id
		}
		if !found {
			t.Fatalf("the audit log records no deny of %s: %d entries", id, len(entries))
		}
	}
	denials := func(ss []otelcoltest.Span) map[refusal]bool {
		got := map[refusal]bool{}
		for _, s := range ss {
			for _, e := range s.Events {
				if e.Name == otelexport.DecisionEvent && e.Attrs[otelexport.AttrDecision] == audit.DecisionDeny {
					got[refusal{s.Attrs["gen_ai.tool.call.id"], e.Attrs[otelexport.AttrRule]}] = true
				}
			}
		}
		return got
	}
	root := func(ss []otelcoltest.Span) bool {
		for _, s := range ss {
			if strings.HasPrefix(s.Name, "acp-bridge ") {
				return true
			}
		}
		return false
	}
	// The run's span is the last the bridge ends: all else was sent before.
	got := denials(col.WaitSpans(root))
	for r := range want {
		if !got[r] {
			t.Errorf("the audit log denies tool call %s (%s); no span of it says so", r.id, r.rule)
		}
	}
}
