package otelexport

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"os"
	"strconv"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// maxOpenTools bounds the tool spans waiting for their final status: a
// tool call beyond it ends the oldest one's span, as unfinished, to be
// traced itself. It is well under DefaultSpanQueue, so that the spans
// still open when the bridge stops fit the export queue with the run's
// own. maxEndedTools is how many ended tool calls are remembered, and
// maxShown how many decisions of one call.
const (
	maxOpenTools  = 1024
	maxEndedTools = 4096
	maxShown      = 8
)

// DecisionEvent is the name of the span event that records a policy
// decision on a tool call: AttrDecision, AttrRule (the rule as written,
// with its file:line), AttrApprover, AttrAction and AttrSeq of the audit
// event that recorded it.
const DecisionEvent = "acp_bridge.policy.decision"

// AttrToolStatus is the tool call's final status on its span: completed,
// failed, denied, or unfinished when the bridge stopped first.
const AttrToolStatus = "acp_bridge.tool.status"

// toolSpans turns the audit log's tool-call events into spans: one per
// tool call, from its first event to the one with its final status, each
// policy decision a span event, the parent the session's turn under way.
// The audit log is what governance decided, so the spans show the
// bridge's decisions, not what the agent claimed. Used by one goroutine
// at a time.
type toolSpans struct {
	t     *Tracer
	run   string
	rd    *logReader
	open  map[string]*toolSpan // by session and toolCallId
	order []string             // keys of open, oldest first
	// ended holds, for recent tool calls whose span ended, the decisions
	// their span showed: a later event about one that only restates one
	// of them (the violation recorded after a deny) starts no second
	// span, but any other decision does (the agent reused the call's id
	// for another call, whose refusal the telemetry must show too).
	ended      map[string][]decisionKey
	endedOrder []string
}

// toolSpan is a tool call whose final status has not been read yet.
type toolSpan struct {
	span trace.Span
	last time.Time
	// shown are the decisions recorded on the span, at most maxShown.
	shown []decisionKey
}

// decisionKey identifies a policy decision on a tool call: the
// decision, the rule and the call's arguments, hashed.
type decisionKey [sha256.Size]byte

// decisionOf is the decisionKey of e's policy decision.
func decisionOf(e *audit.Entry) decisionKey {
	h := sha256.New()
	h.Write([]byte(e.Decision()))
	h.Write([]byte{0})
	h.Write([]byte(e.PolicyRule))
	h.Write([]byte{0})
	if e.ToolCall != nil {
		h.Write(e.ToolCall.Arguments)
	}
	var k decisionKey
	h.Sum(k[:0])
	return k
}

// restates reports whether e, an event about a tool call whose span
// ended after showing the decisions shown, adds nothing to that span:
// it carries no decision, or one of those.
func restates(e *audit.Entry, shown []decisionKey) bool {
	if e.Policy == nil {
		return true
	}
	k := decisionOf(e)
	for _, d := range shown {
		if d == k {
			return true
		}
	}
	return false
}

// newToolSpans reads the log at path from its current end: only events
// written from now on become spans.
func newToolSpans(t *Tracer, path, run string) *toolSpans {
	r := &logReader{path: path, cursor: Cursor{Seq: -1}, checked: true, done: map[string]bool{}}
	if closed, err := audit.ClosedFiles(path); err == nil {
		for _, name := range closed {
			r.done[name] = true
		}
	}
	if f, err := os.Open(path); err == nil {
		if fi, err := f.Stat(); err == nil {
			r.f, r.fi, r.active, r.off = f, fi, true, fi.Size()
		} else {
			f.Close()
		}
	}
	return &toolSpans{t: t, run: run, rd: r, open: map[string]*toolSpan{}, ended: map[string][]decisionKey{}}
}

// poll reads what the log gained and traces it. Ending a span may wait,
// until ctx is done, for room in the export queue (see makeRoom).
func (s *toolSpans) poll(ctx context.Context) {
	for {
		es, err := s.rd.read(DefaultBatchSize)
		s.rd.takeAnomalies() // the log exporter reports them
		for i := range es {
			s.add(ctx, &es[i])
		}
		if err != nil {
			s.t.log.Debug("otlp traces: reading the audit log", "err", err)
			return
		}
		if len(es) == 0 {
			return
		}
	}
}

// add traces one audit event, if it is about a tool call of this run.
func (s *toolSpans) add(ctx context.Context, e *audit.Entry) {
	if s.run != "" && e.RunID != s.run {
		return
	}
	id := ""
	if e.ToolCall != nil {
		id = e.ToolCall.ToolCallID
	}
	if id == "" && e.Subject.Kind == "tool-call" {
		id = e.Subject.Ref
	}
	if id == "" {
		return
	}
	key := e.Session + "\x00" + id
	if shown, ok := s.ended[key]; ok {
		if restates(e, shown) {
			return
		}
		delete(s.ended, key)
	}
	ts := e.Time
	if ts.IsZero() {
		ts = time.Now()
	}
	tool := ""
	if e.ToolCall != nil {
		tool = e.ToolCall.Tool
	}
	open, ok := s.open[key]
	if !ok {
		if len(s.open) >= maxOpenTools {
			oldest := s.order[0]
			s.finish(ctx, oldest, s.open[oldest].last, "unfinished", codes.Unset, "")
		}
		parent := s.t.rootCtx
		if sc, ok := s.t.turnAt(e.Session, ts); ok {
			parent = trace.ContextWithSpanContext(context.Background(), sc)
		}
		_, span := s.t.tr.Start(parent, "execute_tool "+shortName(tool),
			trace.WithSpanKind(trace.SpanKindInternal), trace.WithTimestamp(ts),
			trace.WithAttributes(
				attribute.String("gen_ai.operation.name", "execute_tool"),
				attribute.String("gen_ai.tool.name", tool),
				attribute.String("gen_ai.tool.call.id", id),
				attribute.String("gen_ai.conversation.id", e.Session)))
		open = &toolSpan{span: span}
		s.open[key] = open
		s.order = append(s.order, key)
	} else if tool != "" {
		open.span.SetName("execute_tool " + shortName(tool))
		open.span.SetAttributes(attribute.String("gen_ai.tool.name", tool))
	}
	open.last = ts
	if e.Policy != nil {
		attrs := []attribute.KeyValue{
			attribute.String(AttrDecision, e.Policy.Decision),
			attribute.String(AttrRule, e.PolicyRule),
			attribute.String(AttrAction, e.Action),
			attribute.Int64(AttrSeq, e.Seq),
		}
		if e.ToolCall != nil && e.ToolCall.Approval != "" {
			attrs = append(attrs, attribute.String(AttrApprover, e.ToolCall.Approval))
		}
		if approved, ok := metaBool(e.Metadata, "approved"); ok {
			attrs = append(attrs, attribute.Bool("acp_bridge.approval.approved", approved))
		}
		open.span.AddEvent(DecisionEvent, trace.WithTimestamp(ts), trace.WithAttributes(attrs...))
		if len(open.shown) < maxShown {
			open.shown = append(open.shown, decisionOf(e))
		}
	}
	switch status := metaString(e.Metadata, "status"); {
	case e.Decision() == audit.DecisionDeny:
		s.finish(ctx, key, ts, "denied", codes.Error, "denied by policy: "+e.PolicyRule)
	case status == "completed":
		s.finish(ctx, key, ts, status, codes.Ok, "")
	case status == "failed":
		s.finish(ctx, key, ts, status, codes.Error, "the tool call failed")
	}
}

// finish ends the tool span under key with its final status, once the
// export queue has room for it or ctx is done.
func (s *toolSpans) finish(ctx context.Context, key string, ts time.Time, status string, code codes.Code, desc string) {
	open := s.open[key]
	delete(s.open, key)
	for i, k := range s.order {
		if k == key {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	s.ended[key] = open.shown
	s.endedOrder = append(s.endedOrder, key)
	if len(s.endedOrder) > maxEndedTools {
		delete(s.ended, s.endedOrder[0])
		s.endedOrder = s.endedOrder[1:]
	}
	open.span.SetAttributes(attribute.String(AttrToolStatus, status))
	open.span.SetStatus(code, desc)
	s.t.makeRoom(ctx)
	open.span.End(trace.WithTimestamp(ts))
}

// close ends the tool spans still open at their last event, as
// unfinished, and releases the log.
func (s *toolSpans) close(ctx context.Context) {
	for _, key := range append([]string(nil), s.order...) {
		s.finish(ctx, key, s.open[key].last, "unfinished", codes.Unset, "")
	}
	s.rd.close()
}

// shortName is a tool name cut to maxNameLen bytes, on a UTF-8
// boundary, for a span name.
func shortName(s string) string { return cut(s, maxNameLen) }

// cut is s cut to at most n bytes, on a UTF-8 boundary, with "…" added
// when it was cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// metaString returns metadata[name] when it is a string.
func metaString(md json.RawMessage, name string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(md, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[name], &s) != nil {
		return ""
	}
	return s
}

// metaBool returns metadata[name] when it is a boolean.
func metaBool(md json.RawMessage, name string) (bool, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(md, &m) != nil {
		return false, false
	}
	v, err := strconv.ParseBool(string(m[name]))
	return v, err == nil
}
