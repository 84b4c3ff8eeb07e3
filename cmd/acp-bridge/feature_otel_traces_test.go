package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/otelexport"
	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// TestOTLPTracesDemoSession: the demo's governed session, run with
// --otlp-traces, reaches a real collector as one trace: the run's root
// span, the prompt turn as its child (invoke_agent, the session id, the
// stop reason), and a child of the turn per tool call (execute_tool, the
// tool's name and call id, its final status) with each policy decision as
// a span event naming the rule's file:line and the approver.
func TestOTLPTracesDemoSession(t *testing.T) {
	col := otelcoltest.Start(t)
	t.Setenv("TRACEPARENT", "")
	ws, _ := demoSession(t, "--otlp-endpoint", col.Endpoint(), "--otlp-traces")
	spans := col.WaitSpans(func(ss []otelcoltest.Span) bool {
		for _, s := range ss {
			if strings.HasPrefix(s.Name, "acp-bridge ") {
				return true
			}
		}
		return false
	})
	byName := map[string]otelcoltest.Span{}
	for _, s := range spans {
		if _, dup := byName[s.Name]; dup {
			t.Errorf("span %q arrived twice", s.Name)
		}
		byName[s.Name] = s
	}
	var root, turn otelcoltest.Span
	for name, s := range byName {
		switch {
		case strings.HasPrefix(name, "acp-bridge "):
			root = s
		case strings.HasPrefix(name, "invoke_agent "):
			turn = s
		}
	}
	if root.SpanID == "" || turn.SpanID == "" {
		t.Fatalf("want a root and a turn span, got %v", names(spans))
	}
	if turn.ParentSpanID != root.SpanID || turn.TraceID != root.TraceID {
		t.Errorf("turn span's parent %s/%s, want the root %s/%s", turn.TraceID, turn.ParentSpanID, root.TraceID, root.SpanID)
	}
	for k, want := range map[string]string{"gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": "demo-session-1",
		"gen_ai.response.finish_reasons": "end_turn"} {
		if turn.Attrs[k] != want {
			t.Errorf("turn span %s = %q, want %q", k, turn.Attrs[k], want)
		}
	}
	if turn.Resource["service.name"] != "acp-bridge" {
		t.Errorf("resource service.name = %q", turn.Resource["service.name"])
	}
	tools := []struct {
		name, id, status, rule, approver string
		code                             int
	}{
		{"execute_tool read", "call_read", "completed", "allow Read (" + filepath.Join(ws, "GOVERNANCE.md") + ":14)", "", 1},
		{"execute_tool edit", "call_edit", "completed", "require-approval Edit (" + filepath.Join(ws, "GOVERNANCE.md") + ":12)", "user:ide (allow_once allow)", 1},
	}
	for _, w := range tools {
		s, ok := byName[w.name]
		if !ok {
			t.Errorf("no span %q; got %v", w.name, names(spans))
			continue
		}
		if s.ParentSpanID != turn.SpanID || s.TraceID != turn.TraceID {
			t.Errorf("%s: parent %s, want the turn %s", w.name, s.ParentSpanID, turn.SpanID)
		}
		if s.Attrs["gen_ai.operation.name"] != "execute_tool" || s.Attrs["gen_ai.tool.call.id"] != w.id ||
			s.Attrs["gen_ai.conversation.id"] != "demo-session-1" || s.Attrs[otelexport.AttrToolStatus] != w.status || s.StatusCode != w.code {
			t.Errorf("%s: attributes %v, status %d", w.name, s.Attrs, s.StatusCode)
		}
		approved := false
		for _, e := range s.Events {
			if e.Name != otelexport.DecisionEvent {
				continue
			}
			if e.Attrs[otelexport.AttrRule] != w.rule {
				t.Errorf("%s: decision event rule %q, want %q", w.name, e.Attrs[otelexport.AttrRule], w.rule)
			}
			approved = approved || e.Attrs[otelexport.AttrApprover] == w.approver
		}
		if len(s.Events) == 0 || !approved {
			t.Errorf("%s: decision events %v, want the rule and approver %q", w.name, s.Events, w.approver)
		}
	}
}

func names(ss []otelcoltest.Span) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name)
	}
	return out
}

// traceProbeAgent is an ACP agent in sh that saves its TRACEPARENT and
// every line it receives in the directory $1, and answers initialize,
// session/new and the prompts with ids 2 to 5.
const traceProbeAgent = `printf '%s\n' "$TRACEPARENT" > "$1/env"
while IFS= read -r l; do
  printf '%s\n' "$l" >> "$1/got.jsonl"
  case "$l" in
  *'"method":"initialize"'*) echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"probe","version":"1"}}}';;
  *'"method":"session/new"'*) echo '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}';;
  *'"id":2,'*|*'"id":3,'*|*'"id":4,'*|*'"id":5,'*) id=${l#*'"id":'}; echo '{"jsonrpc":"2.0","id":'"${id%%,*}"',"result":{"stopReason":"end_turn"}}';;
  esac
done`

// TestOTLPTracesPropagation: with only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
// set (no audit log), the agent gets the run's trace context in
// TRACEPARENT, continuing the bridge's own TRACEPARENT; a prompt carrying
// the IDE's well-formed _meta.traceparent becomes a turn in the IDE's
// trace and reaches the agent with that trace and the turn as parent, the
// value replaced in place; a prompt without one gets the turn's; a
// malformed or case-variant one leaves byte-identical. The collector's
// spans agree with what the agent got.
func TestOTLPTracesPropagation(t *testing.T) {
	col := otelcoltest.Start(t)
	const bridgeParent = "00-11111111111111111111111111111111-2222222222222222-01"
	const ideParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", col.Endpoint()+"/v1/traces")
	t.Setenv("TRACEPARENT", bridgeParent)
	dir := t.TempDir()
	sent := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + dir + `","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[],"_meta":{"x":1,"traceparent":"` + ideParent + `"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s1","prompt":[],"_meta":{"traceparent":"00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[],"_meta":{"TraceParent":"` + ideParent + `"}}}`,
	}
	ide := startBridge(t, "--otlp-traces", "--adapter", "none", "--", "sh", "-c", traceProbeAgent, "sh", dir)
	for i, line := range sent {
		ide.Send(line)
		ide.Response(strconv.Itoa(i))
	}
	if err := ide.Wait(); err != nil {
		t.Fatalf("bridge: %v (stderr: %s)", err, ide.Stderr())
	}

	envTP, _ := os.ReadFile(filepath.Join(dir, "env"))
	agentEnv, ok := otelexport.ParseTraceparent(strings.TrimSpace(string(envTP)), "")
	if !ok || agentEnv.TraceID().String() != "11111111111111111111111111111111" {
		t.Fatalf("the agent's TRACEPARENT %q: want the bridge's trace 1111...", envTP)
	}
	gotData, err := os.ReadFile(filepath.Join(dir, "got.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(string(gotData)), "\n")
	if len(got) != len(sent) {
		t.Fatalf("the agent got %d lines, want %d:\n%s", len(got), len(sent), gotData)
	}
	tpOf := func(line string) string {
		var m struct {
			Params struct {
				Meta map[string]string `json:"_meta"`
			} `json:"params"`
		}
		json.Unmarshal([]byte(line), &m)
		return m.Params.Meta["traceparent"]
	}
	fromIDE, ok := otelexport.ParseTraceparent(tpOf(got[2]), "")
	if !ok || fromIDE.TraceID().String() != "0af7651916cd43dd8448eb211c80319c" || fromIDE.SpanID().String() == "b7ad6b7169203331" {
		t.Errorf("prompt 2 reached the agent with traceparent %q: want the IDE's trace, the turn as parent", tpOf(got[2]))
	}
	if want := strings.Replace(sent[2], ideParent, tpOf(got[2]), 1); got[2] != want {
		t.Errorf("prompt 2 rewritten beyond its traceparent:\n got %s\nwant %s", got[2], want)
	}
	ownTurn, ok := otelexport.ParseTraceparent(tpOf(got[3]), "")
	if !ok || ownTurn.TraceID() != agentEnv.TraceID() {
		t.Errorf("prompt 3 reached the agent with traceparent %q: want the run's trace %s", tpOf(got[3]), agentEnv.TraceID())
	}
	if want := strings.TrimSuffix(sent[3], "}}") + `,"_meta":{"traceparent":"` + tpOf(got[3]) + `"}}}`; got[3] != want {
		t.Errorf("prompt 3:\n got %s\nwant %s", got[3], want)
	}
	for _, i := range []int{0, 1, 4, 5} {
		if got[i] != sent[i] {
			t.Errorf("line %d changed:\n got %s\nwant %s", i, got[i], sent[i])
		}
	}

	spans := col.WaitSpans(func(ss []otelcoltest.Span) bool { return len(ss) >= 5 })
	byID := map[string]otelcoltest.Span{}
	for _, s := range spans {
		byID[s.SpanID] = s
	}
	root, ok := byID[agentEnv.SpanID().String()]
	if !ok || root.ParentSpanID != "2222222222222222" || root.TraceID != "11111111111111111111111111111111" {
		t.Errorf("root span %+v: want the span in the agent's TRACEPARENT, child of the bridge's", root)
	}
	turn2, ok := byID[fromIDE.SpanID().String()]
	if !ok || turn2.ParentSpanID != "b7ad6b7169203331" || turn2.Attrs["gen_ai.conversation.id"] != "s1" || len(turn2.Links) != 1 || turn2.Links[0] != root.SpanID {
		t.Errorf("turn of prompt 2 %+v: want the IDE's span as parent, a link to the run", turn2)
	}
	turn3, ok := byID[ownTurn.SpanID().String()]
	if !ok || turn3.ParentSpanID != root.SpanID {
		t.Errorf("turn of prompt 3 %+v: want the run's root span as parent", turn3)
	}
	turns := 0
	for _, s := range spans {
		if strings.HasPrefix(s.Name, "invoke_agent ") {
			turns++
			if s.ParentSpanID != root.SpanID && s.SpanID != turn2.SpanID {
				t.Errorf("turn %s has parent %s, want the root", s.SpanID, s.ParentSpanID)
			}
		}
	}
	if turns != 4 {
		t.Errorf("%d turn spans, want 4", turns)
	}
}
