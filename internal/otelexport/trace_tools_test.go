package otelexport

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// toolEvent is a tool.call audit event of session s1 as governance
// records it.
func toolEvent(action, id, tool, status, decision, rule string) audit.Event {
	md := map[string]any{"session": "s1", "rule": rule,
		"toolCall": audit.ToolCall{Kind: "tool-call", Session: "s1", ToolCallID: id, Tool: tool, Approval: "auto"}}
	if status != "" {
		md["status"] = status
	}
	ev := audit.Event{Actor: audit.Actor{ID: "agent:probe"}, Action: action, Subject: audit.Subject{Kind: "tool-call", Ref: id}, Metadata: md}
	if decision != "" {
		ev.Policy = &audit.Policy{Ref: "rule-1", Decision: decision}
	}
	return ev
}

// TestToolSpans: the audit log's tool-call events become one span per
// tool call, the child of the session's turn, ending at the final status
// (completed ok, failed and denied errors, unfinished at Close), each
// decision a span event with the rule and approver; an event about a call
// whose span ended starts no second one; an agent's huge tool name is
// cut; a reused prompt id ends the earlier turn.
func TestToolSpans(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	l := openLog(t, path, audit.Options{RunID: "run-1"})
	// Written before the tracer starts: not traced.
	if err := l.AppendSync(toolEvent("tool.call", "old", "Bash", "completed", "allow", "allow Bash (G.md:3)")); err != nil {
		t.Fatal(err)
	}
	mem := tracetest.NewInMemoryExporter()
	tr, err := newTracer(t.Context(), TraceConfig{LogPath: path, RunID: "run-1", Poll: time.Hour, Agent: "probe"}, keep{mem})
	if err != nil {
		t.Fatal(err)
	}
	tr.Start()
	prompt := func(id string) *acpwire.Message {
		m, err := acpwire.Parse(acpwire.ClientToAgent, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`))
		if err != nil {
			t.Fatal(err)
		}
		return tr.prompt(m)
	}
	prompt("1")
	prompt("1")
	time.Sleep(2 * time.Millisecond) // audit times are to the millisecond: after the turn's start
	huge := strings.Repeat("x", 10000)
	for _, ev := range []audit.Event{
		toolEvent("tool.call", "c1", "Bash", "pending", "allow", "allow Bash (G.md:3)"),
		toolEvent("tool.call", "c1", "Bash", "completed", "", ""),
		toolEvent("tool.call", "c2", "Edit", "pending", "deny", "deny Edit (G.md:5)"),
		toolEvent("policy.violation", "c2", "Edit", "", "deny", "deny Edit (G.md:5)"),
		toolEvent("tool.call", "c3", "Read", "pending", "require-approval", "ask Read (G.md:7)"),
		toolEvent("tool.call", "c4", "Grep", "failed", "", ""),
		toolEvent("tool.call", "c5", huge, "completed", "", ""),
	} {
		if err := l.AppendSync(ev); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	if lost, err := tr.Close(time.Second); err != nil || lost != 0 {
		t.Fatalf("Close: %d spans lost, %v", lost, err)
	}
	spans := mem.GetSpans()
	var turns []tracetest.SpanStub
	tools := map[string][]tracetest.SpanStub{}
	for _, s := range spans {
		switch {
		case strings.HasPrefix(s.Name, "invoke_agent "):
			turns = append(turns, s)
		case strings.HasPrefix(s.Name, "execute_tool "):
			for _, a := range s.Attributes {
				if a.Key == "gen_ai.tool.call.id" {
					tools[a.Value.AsString()] = append(tools[a.Value.AsString()], s)
				}
			}
		}
	}
	if len(turns) != 2 {
		t.Fatalf("%d turn spans, want 2", len(turns))
	}
	reused, unanswered := 0, 0
	for _, tu := range turns {
		switch {
		case tu.Status.Code == codes.Error && strings.Contains(tu.Status.Description, "reused"):
			reused++
		case tu.Status.Code == codes.Error && strings.Contains(tu.Status.Description, "stopped"):
			unanswered++
		}
	}
	if reused != 1 || unanswered != 1 {
		t.Errorf("turn statuses %v %v: want the first ended by the id's reuse, the second by Close", turns[0].Status, turns[1].Status)
	}
	latest := turns[0]
	if turns[1].StartTime.After(latest.StartTime) {
		latest = turns[1]
	}
	for _, w := range []struct {
		id, status string
		code       codes.Code
		events     int
	}{
		{"c1", "completed", codes.Ok, 1},
		{"c2", "denied", codes.Error, 1},
		{"c3", "unfinished", codes.Unset, 1},
		{"c4", "failed", codes.Error, 0},
		{"c5", "completed", codes.Ok, 0},
	} {
		ss := tools[w.id]
		if len(ss) != 1 {
			t.Errorf("%s: %d spans, want 1", w.id, len(ss))
			continue
		}
		s := ss[0]
		if s.Parent.SpanID() != latest.SpanContext.SpanID() {
			t.Errorf("%s: parent %s, want the turn under way %s", w.id, s.Parent.SpanID(), latest.SpanContext.SpanID())
		}
		if got := attr(s, AttrToolStatus); got != w.status || s.Status.Code != w.code {
			t.Errorf("%s: status %q %v, want %q %v", w.id, got, s.Status.Code, w.status, w.code)
		}
		if len(s.Events) != w.events {
			t.Errorf("%s: %d events, want %d", w.id, len(s.Events), w.events)
		}
	}
	if s := tools["c1"]; len(s) == 1 && len(s[0].Events) == 1 {
		e := s[0].Events[0]
		got := map[string]string{}
		for _, a := range e.Attributes {
			got[string(a.Key)] = a.Value.Emit()
		}
		if e.Name != DecisionEvent || got[AttrRule] != "allow Bash (G.md:3)" || got[AttrDecision] != "allow" || got[AttrApprover] != "auto" {
			t.Errorf("c1's decision event %s %v", e.Name, got)
		}
	}
	if s := tools["c5"]; len(s) == 1 && (len(s[0].Name) > len("execute_tool ")+maxNameLen+len("…") || len(attr(s[0], "gen_ai.tool.name")) > maxAttrLen) {
		t.Errorf("a 10,000-byte tool name made a span named %d bytes, attribute %d bytes", len(s[0].Name), len(attr(s[0], "gen_ai.tool.name")))
	}
	if len(tools["old"]) != 0 {
		t.Error("an event written before the tracer started became a span")
	}
}

// keep is an in-memory exporter that keeps its spans when the SDK shuts
// it down (InMemoryExporter.Shutdown resets it).
type keep struct{ *tracetest.InMemoryExporter }

func (keep) Shutdown(context.Context) error { return nil }

func attr(s tracetest.SpanStub, key string) string {
	for _, a := range s.Attributes {
		if string(a.Key) == key {
			return a.Value.Emit()
		}
	}
	return ""
}

// TestToolSpansShowEveryDecision: each decision the audit log records
// about a tool call is an event on a span of that call. An event that
// restates a decision the call's ended span showed (the violation after a
// deny) starts no second span; a call id the agent reuses once its call
// ended, for a call denied by another rule, gets a second span; a call
// announced while maxOpenTools calls are still open ends the oldest's
// span as unfinished and is traced.
func TestToolSpansShowEveryDecision(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openLog(t, path, audit.Options{RunID: "run-1"})
	mem := tracetest.NewInMemoryExporter()
	tr, err := newTracer(t.Context(), TraceConfig{LogPath: path, RunID: "run-1", Poll: time.Hour, Agent: "probe", QueueSize: 4 * maxOpenTools}, keep{mem})
	if err != nil {
		t.Fatal(err)
	}
	tr.Start()
	evs := []audit.Event{
		toolEvent("tool.call", "reused", "Bash", "completed", "allow", "allow Bash(echo:*) (G.md:3)"),
		toolEvent("tool.call", "reused", "Bash", "pending", "deny", "deny Bash(rm:*) (G.md:4)"),
		toolEvent("policy.violation", "reused", "Bash", "", "deny", "deny Bash(rm:*) (G.md:4)"),
		toolEvent("tool.call", "reused", "Bash", "completed", "", ""),
	}
	for i := range maxOpenTools + 1 {
		evs = append(evs, toolEvent("tool.call", "open-"+strconv.Itoa(i), "Bash", "pending", "allow", "allow Bash(echo:*) (G.md:3)"))
	}
	evs = append(evs, toolEvent("tool.call", "late", "Bash", "pending", "deny", "deny Bash(rm:*) (G.md:4)"))
	for _, ev := range evs {
		if err := l.AppendSync(ev); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	if _, err := tr.Close(time.Second); err != nil {
		t.Fatal(err)
	}
	decisions := map[string][]string{}
	spans := map[string]int{}
	for _, s := range mem.GetSpans() {
		id := attr(s, "gen_ai.tool.call.id")
		spans[id]++
		for _, e := range s.Events {
			for _, a := range e.Attributes {
				if a.Key == AttrRule {
					decisions[id] = append(decisions[id], a.Value.AsString())
				}
			}
		}
	}
	for _, w := range []struct {
		id        string
		spans     int
		decisions []string
	}{
		{"reused", 2, []string{"allow Bash(echo:*) (G.md:3)", "deny Bash(rm:*) (G.md:4)"}},
		{"late", 1, []string{"deny Bash(rm:*) (G.md:4)"}},
		{"open-0", 1, []string{"allow Bash(echo:*) (G.md:3)"}},
	} {
		if spans[w.id] != w.spans || !slices.Equal(decisions[w.id], w.decisions) {
			t.Errorf("%s: %d spans with decisions %q, want %d with %q", w.id, spans[w.id], decisions[w.id], w.spans, w.decisions)
		}
	}
}

// TestToolSpansBetweenTurns: a tool call the agent makes after the
// session's turn ended is not a child of that turn (the prompt did not ask
// for it) but of the run's span; one made during the turn is the turn's.
func TestToolSpansBetweenTurns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openLog(t, path, audit.Options{RunID: "run-1"})
	mem := tracetest.NewInMemoryExporter()
	tr, err := newTracer(t.Context(), TraceConfig{LogPath: path, RunID: "run-1", Poll: time.Hour, Agent: "probe"}, keep{mem})
	if err != nil {
		t.Fatal(err)
	}
	tr.Start()
	p, err := acpwire.Parse(acpwire.ClientToAgent, []byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	p = tr.prompt(p)
	time.Sleep(2 * time.Millisecond)
	if err := l.AppendSync(toolEvent("tool.call", "during", "Bash", "completed", "allow", "allow Bash (G.md:3)")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond)
	resp, err := acpwire.Parse(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Request = p
	tr.answered(resp)
	time.Sleep(2 * time.Millisecond)
	if err := l.AppendSync(toolEvent("tool.call", "after", "Bash", "completed", "allow", "allow Bash (G.md:3)")); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := tr.Close(time.Second); err != nil {
		t.Fatal(err)
	}
	parents := map[string]string{}
	var turn, root string
	for _, s := range mem.GetSpans() {
		switch {
		case strings.HasPrefix(s.Name, "invoke_agent "):
			turn = s.SpanContext.SpanID().String()
		case strings.HasPrefix(s.Name, "acp-bridge "):
			root = s.SpanContext.SpanID().String()
		default:
			parents[attr(s, "gen_ai.tool.call.id")] = s.Parent.SpanID().String()
		}
	}
	if parents["during"] != turn {
		t.Errorf("the call during the turn has parent %s, want the turn %s", parents["during"], turn)
	}
	if parents["after"] != root {
		t.Errorf("the call after the turn ended has parent %s, want the run's span %s (the turn is %s)", parents["after"], root, turn)
	}
}
