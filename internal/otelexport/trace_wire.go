package otelexport

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// maxOpenTurns bounds the prompt turns waiting for their response; a
// prompt beyond it is forwarded untouched and not traced.
const maxOpenTurns = 4096

// maxSessionTurns is how many recent turns of a session are kept to
// parent the tool spans read from the audit log, and maxSessions how many
// sessions.
const (
	maxSessionTurns = 32
	maxSessions     = 1024
)

// turn is one prompt turn: a session/prompt request until its response.
type turn struct {
	session string
	start   time.Time
	// end is when the agent answered the prompt; zero while it has not.
	end  time.Time
	span trace.Span
	sc   trace.SpanContext
}

// Middleware returns the wire middleware that makes a span of every
// prompt turn (session/prompt to its response) and passes the turn's
// trace context to the agent in the prompt's params._meta.traceparent.
//
// Add it innermost (last, with UseNonRetaining: it keeps nothing of a
// message), so that it sees the prompt as the other features forward it
// and rewrites only what reaches the agent. The prompt is rewritten only
// when that can be done unambiguously (see propagate); otherwise it
// leaves byte-identical and the turn is a child of the run's root span.
func (t *Tracer) Middleware() acpwire.Middleware {
	return func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			switch {
			case m.Kind == acpwire.KindRequest && m.Dir == acpwire.ClientToAgent && m.Method == "session/prompt":
				return next.Handle(ctx, t.prompt(m))
			case m.Kind == acpwire.KindResponse && m.Dir == acpwire.AgentToClient && m.Request != nil && m.Request.Method == "session/prompt":
				t.answered(m)
			}
			return next.Handle(ctx, m)
		})
	}
}

// prompt starts the turn span of a session/prompt request and returns the
// request to forward: with the turn's traceparent in params._meta, or m
// itself.
func (t *Tracer) prompt(m *acpwire.Message) *acpwire.Message {
	t.mu.Lock()
	full := len(t.turns) >= maxOpenTurns
	t.mu.Unlock()
	if full {
		return m
	}
	sid, _ := rawjson.GetString(m.Params, "sessionId")
	sid = agentText(sid)
	in, rewrite := incomingContext(m.Params)
	parent := t.rootCtx
	var links []trace.Link
	if in.IsValid() {
		parent = trace.ContextWithRemoteSpanContext(context.Background(), in)
		links = append(links, trace.Link{SpanContext: t.root.SpanContext()})
	}
	now := time.Now()
	ctx, span := t.tr.Start(parent, "invoke_agent "+cmp.Or(t.cfg.Agent, "agent"),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(now), trace.WithLinks(links...),
		trace.WithAttributes(
			attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.agent.name", t.cfg.Agent),
			attribute.String("gen_ai.conversation.id", sid)))
	out := m
	if rewrite {
		if tp := traceparentOf(ctx); tp != "" {
			q, _ := json.Marshal(tp)
			if p, err := m.Patch(q, "params", "_meta", "traceparent"); err == nil {
				out = p
			} else {
				t.log.Debug("otlp traces: prompt not rewritten", "err", err)
			}
		}
	}
	tr := &turn{session: sid, start: now, span: span, sc: span.SpanContext()}
	t.mu.Lock()
	if old, ok := t.turns[string(out.ID)]; ok {
		// The IDE reused the id of a prompt still pending: the wire
		// matches the next response to the later one, so the earlier
		// turn ends here.
		old.span.SetStatus(codes.Error, "another prompt reused its request id")
		old.span.End()
		t.endedLocked(old, now)
	}
	t.turns[string(out.ID)] = tr
	if _, ok := t.sessions[sid]; !ok && len(t.sessions) >= maxSessions {
		for k := range t.sessions {
			delete(t.sessions, k) // any one: its tools then parent to the run
			break
		}
	}
	recent := append(t.sessions[sid], *tr)
	if len(recent) > maxSessionTurns {
		recent = recent[len(recent)-maxSessionTurns:]
	}
	t.sessions[sid] = recent
	t.mu.Unlock()
	return out
}

// answered ends the turn a session/prompt response answers, with the
// stop reason or the error.
func (t *Tracer) answered(m *acpwire.Message) {
	t.mu.Lock()
	tr, ok := t.turns[string(m.Request.ID)]
	delete(t.turns, string(m.Request.ID))
	if ok {
		t.endedLocked(tr, time.Now())
	}
	t.mu.Unlock()
	if !ok {
		return
	}
	if m.Error != nil {
		code, _ := rawjson.Get(m.Error, "code")
		msg, _ := rawjson.GetString(m.Error, "message")
		tr.span.SetAttributes(attribute.String("error.type", agentText(strings.TrimSpace(string(code)))))
		tr.span.SetStatus(codes.Error, agentText(msg))
	} else if reason, ok := rawjson.GetString(m.Result, "stopReason"); ok {
		tr.span.SetAttributes(attribute.StringSlice("gen_ai.response.finish_reasons", []string{agentText(reason)}))
	}
	tr.span.End()
}

// agentText is text the agent chose (its session id, a prompt's error,
// its stop reason) as a span may carry it: redacted as the audit log
// redacts it, so that a token the agent echoes is no more in the traces
// than in the log, and cut to maxAttrLen bytes (a span's status message
// has no limit of its own).
func agentText(s string) string {
	return cut(audit.RedactText(s), maxAttrLen)
}

// incomingContext reads the IDE's trace context from a prompt's params:
// the span context of a well-formed params._meta.traceparent (with
// tracestate), and whether the bridge may write its own traceparent
// there. It may when params has one _meta object holding no member
// named like traceparent (one is added) or exactly one well-formed
// traceparent (it is replaced by the turn's, in place: same trace, the
// turn as parent). Anything else (params or _meta not one object, a
// traceparent repeated, not a string, malformed, or a member whose name
// differs from traceparent only in case, which a case-insensitive
// decoder might read instead) is left alone: the prompt is forwarded as
// it came, never half-rewritten.
func incomingContext(params []byte) (trace.SpanContext, bool) {
	members, err := rawjson.Members(params)
	if err != nil {
		return trace.SpanContext{}, false
	}
	var meta []byte
	n := 0
	for _, mb := range members {
		if mb.Key == "_meta" {
			meta, n = mb.Value, n+1
		}
	}
	switch {
	case n == 0:
		return trace.SpanContext{}, true
	case n > 1:
		return trace.SpanContext{}, false
	}
	inner, err := rawjson.Members(meta)
	if err != nil || len(strings.TrimSpace(string(meta))) == 0 || strings.TrimSpace(string(meta))[0] != '{' {
		return trace.SpanContext{}, false
	}
	var tp, ts []byte
	tps, tss := 0, 0
	for _, mb := range inner {
		switch {
		case mb.Key == "traceparent":
			tp, tps = mb.Value, tps+1
		case mb.Key == "tracestate":
			ts, tss = mb.Value, tss+1
		case strings.EqualFold(mb.Key, "traceparent"), strings.EqualFold(mb.Key, "tracestate"):
			return trace.SpanContext{}, false
		}
	}
	if tps == 0 {
		return trace.SpanContext{}, tss == 0
	}
	if tps > 1 || tss > 1 {
		return trace.SpanContext{}, false
	}
	parent, ok := rawjson.String(tp)
	if !ok {
		return trace.SpanContext{}, false
	}
	state := ""
	if tss == 1 {
		if state, ok = rawjson.String(ts); !ok {
			return trace.SpanContext{}, false
		}
	}
	sc, ok := ParseTraceparent(parent, state)
	if !ok || (tss == 1 && sc.TraceState().Len() == 0 && strings.TrimSpace(state) != "") {
		return trace.SpanContext{}, false
	}
	return sc, true
}

// endedLocked notes that tr's turn ended at end among its session's
// recent turns. t.mu held.
func (t *Tracer) endedLocked(tr *turn, end time.Time) {
	recent := t.sessions[tr.session]
	for i := range recent {
		if recent[i].sc.SpanID() == tr.sc.SpanID() {
			recent[i].end = end
		}
	}
}

// turnAt returns the span context of session's turn under way at ts: the
// latest that started at or before it and had not ended before it (audit
// times are to the millisecond), or false. A tool call the agent makes
// between turns is no turn's: the prompt before it did not ask for it.
func (t *Tracer) turnAt(session string, ts time.Time) (trace.SpanContext, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	recent := t.sessions[session]
	for i := len(recent) - 1; i >= 0; i-- {
		if !recent[i].start.Truncate(time.Millisecond).After(ts) {
			if end := recent[i].end; !end.IsZero() && end.Truncate(time.Millisecond).Before(ts) {
				return trace.SpanContext{}, false
			}
			return recent[i].sc, true
		}
	}
	return trace.SpanContext{}, false
}
