package otelexport

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// DefaultSpanQueue is the most ended spans held for export. A turn's span,
// which the wire ends, is dropped when the queue is full, never waited
// for; a tool call's waits for room (see makeRoom).
const DefaultSpanQueue = 2048

// maxAttrLen bounds a span attribute's value, in bytes, unless
// OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT asks for less; maxNameLen bounds the
// tool name in a span's name.
const (
	maxAttrLen = 4096
	maxNameLen = 256
)

// TraceConfig configures a Tracer.
type TraceConfig struct {
	// Endpoint is the OTLP/HTTP base URL (http://host:4318); spans go to
	// its /v1/traces. Optional; if empty,
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT
	// as the SDK reads them, with the headers, certificate and timeout
	// variables.
	Endpoint string
	// Headers are added to every request (authentication). Optional.
	Headers map[string]string
	// Timeout bounds one export request. Optional; if zero,
	// DefaultTimeout.
	Timeout time.Duration
	// QueueSize is the most ended spans waiting for export; a turn's span
	// ended while the queue is full is dropped and counted, a tool call's
	// waits for room (at most Timeout at a time). Optional; if zero,
	// DefaultSpanQueue.
	QueueSize int
	// LogPath is the audit log whose tool calls and policy decisions
	// become tool spans. Optional; if empty, only turn spans are made.
	LogPath string
	// RunID is the audit log's run id: events of other runs are not
	// traced. Optional.
	RunID string
	// Poll is how often the audit log is read for new events. Optional;
	// if zero, DefaultPoll.
	Poll time.Duration
	// Parent is a W3C traceparent (the bridge's own TRACEPARENT) whose
	// child the run's root span becomes; TraceState goes with it.
	// Optional; ignored when malformed.
	Parent, TraceState string
	// BridgeVersion, User and Agent are resource attributes, as in
	// Config; OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME override
	// them. Optional.
	BridgeVersion, User, Agent string
	// Logger hears of export failures and what was dropped. Optional;
	// nil discards.
	Logger *slog.Logger
}

// Tracer makes OpenTelemetry spans of a bridge run: a root span for the
// run, a span per prompt turn (from a wire middleware, see Middleware)
// and a span per tool call with the policy decisions as span events
// (from the audit log). Spans are exported in the background by the
// SDK's batch processor: ending a span never waits on the collector.
type Tracer struct {
	cfg  TraceConfig
	log  *slog.Logger
	prov *sdktrace.TracerProvider
	exp  *countingExporter
	tr   trace.Tracer

	root    trace.Span
	rootCtx context.Context
	room    queueRoom // what waits in the export queue

	mu       sync.Mutex        // guards turns and sessions
	turns    map[string]*turn  // open turns by the forwarded request's id
	sessions map[string][]turn // recent turns of each session, oldest first

	tools *toolSpans // nil without LogPath
	// polling is done when half of Close's time is spent: the audit
	// log's reader then stops waiting for room in the queue.
	polling    context.Context
	endPolling context.CancelFunc
	stop       chan struct{}
	done       chan struct{}
	once       sync.Once
}

// NewTracer starts the run's root span and the exporter. It does not
// connect yet; a collector that is down costs only the spans it drops.
func NewTracer(ctx context.Context, cfg TraceConfig) (*Tracer, error) {
	cfg.Timeout = orDefault(cfg.Timeout, DefaultTimeout)
	opts := append([]otlptracehttp.Option{otlptracehttp.WithTimeout(cfg.Timeout)},
		transport(cfg.Endpoint, "/v1/traces", cfg.Headers, otlptracehttp.WithEndpointURL, otlptracehttp.WithHeaders)...)
	inner, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("otlp traces: %w", err)
	}
	return newTracer(ctx, cfg, inner)
}

// newTracer is NewTracer with the exporter given.
func newTracer(ctx context.Context, cfg TraceConfig, inner sdktrace.SpanExporter) (*Tracer, error) {
	cfg.Timeout = orDefault(cfg.Timeout, DefaultTimeout)
	cfg.QueueSize = orDefault(cfg.QueueSize, DefaultSpanQueue)
	cfg.Poll = orDefault(cfg.Poll, DefaultPoll)
	lg := orDiscard(cfg.Logger)
	res, err := bridgeResource(ctx, Config{BridgeVersion: cfg.BridgeVersion, User: cfg.User, Agent: cfg.Agent})
	if err != nil && res == nil {
		return nil, fmt.Errorf("otlp traces: resource: %w", err)
	}
	t := &Tracer{cfg: cfg, log: lg, turns: map[string]*turn{}, sessions: map[string][]turn{},
		stop: make(chan struct{}), done: make(chan struct{})}
	t.exp = &countingExporter{SpanExporter: inner, log: lg, handled: &t.room.handled}
	t.polling, t.endPolling = context.WithCancel(context.Background())
	// The agent names tools and tool call ids: a huge one must not make
	// huge spans.
	limits := sdktrace.NewSpanLimits()
	if limits.AttributeValueLengthLimit < 0 || limits.AttributeValueLengthLimit > maxAttrLen {
		limits.AttributeValueLengthLimit = maxAttrLen
	}
	t.prov = sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSpanLimits(limits),
		sdktrace.WithSpanProcessor(endCounter{&t.room.ended}),
		// Never blocking: a full queue drops the span (counted at Close);
		// the audit log's reader waits for room itself (makeRoom).
		sdktrace.WithBatcher(t.exp, sdktrace.WithMaxQueueSize(cfg.QueueSize), sdktrace.WithExportTimeout(cfg.Timeout)))
	t.tr = t.prov.Tracer("github.com/acp-bridge/acp-bridge")
	parent := context.Background()
	if sc, ok := ParseTraceparent(cfg.Parent, cfg.TraceState); ok {
		parent = trace.ContextWithRemoteSpanContext(parent, sc)
	}
	t.rootCtx, t.root = t.tr.Start(parent, "acp-bridge "+cmp.Or(cfg.Agent, "agent"),
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(attribute.String("gen_ai.agent.name", cfg.Agent)))
	if cfg.LogPath != "" {
		t.tools = newToolSpans(t, cfg.LogPath, cfg.RunID)
	}
	return t, nil
}

// Traceparent is the W3C traceparent of the run's root span: what the
// agent gets in TRACEPARENT.
func (t *Tracer) Traceparent() string { return traceparentOf(t.rootCtx) }

// Start reads the audit log for tool spans in the background until Close.
// Without a LogPath it does nothing.
func (t *Tracer) Start() {
	if t.tools == nil {
		close(t.done)
		return
	}
	go func() {
		defer close(t.done)
		for {
			t.tools.poll(t.polling)
			select {
			case <-t.stop:
				return
			case <-time.After(t.cfg.Poll):
			}
		}
	}()
}

// Close ends what is open (tool spans at their last event, turns that got
// no response, the root span) and exports what is queued, waiting on the
// collector for about timeout: ending the spans waits for room in the
// export queue for at most half of it, and the export that follows has
// the rest, or at least the other half once the audit log is read. It
// returns how many spans ended without reaching the collector (dropped
// from a full queue, failed, or still queued at the deadline).
func (t *Tracer) Close(timeout time.Duration) (lost int64, err error) {
	deadline := time.Now().Add(timeout)
	// The reader, in the middle of a read, and what follows wait for room
	// until half the time is spent.
	roomEnds := time.AfterFunc(timeout/2, t.endPolling)
	defer roomEnds.Stop()
	defer t.endPolling()
	room := t.polling
	t.once.Do(func() { close(t.stop) })
	<-t.done
	if t.tools != nil {
		t.tools.poll(room)
		t.tools.close(room)
	}
	t.mu.Lock()
	for id, tr := range t.turns {
		tr.span.SetStatus(codes.Error, "the bridge stopped before the agent answered the prompt")
		tr.span.End()
		delete(t.turns, id)
	}
	t.mu.Unlock()
	t.makeRoom(room)
	// Reading the rest of the audit log took what it took: the export
	// has at least half the time.
	ctx, cancel := context.WithDeadline(context.Background(), later(deadline, time.Now().Add(timeout/2)))
	defer cancel()
	t.root.End()
	err = t.prov.Shutdown(ctx)
	lost = t.room.ended.Load() - t.exp.sent.Load()
	if lost > 0 {
		t.log.Warn("otlp traces: spans did not reach the collector", "lost", lost, "ended", t.room.ended.Load(), "err", err)
	}
	return lost, err
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Sent returns how many spans the collector acknowledged.
func (t *Tracer) Sent() int64 { return t.exp.sent.Load() }

// ParseTraceparent reads a W3C traceparent (and tracestate) as the
// OpenTelemetry propagator does; ok is false when it is malformed.
func ParseTraceparent(traceparent, tracestate string) (trace.SpanContext, bool) {
	if traceparent == "" {
		return trace.SpanContext{}, false
	}
	carrier := propagation.MapCarrier{"traceparent": traceparent}
	if tracestate != "" {
		carrier["tracestate"] = tracestate
	}
	sc := trace.SpanContextFromContext(propagation.TraceContext{}.Extract(context.Background(), carrier))
	return sc, sc.IsValid()
}

// traceparentOf is the W3C traceparent of the span in ctx, "" if none.
func traceparentOf(ctx context.Context) string {
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier["traceparent"]
}

// countingExporter counts the spans the collector acknowledged and says
// once when it stops taking them.
type countingExporter struct {
	sdktrace.SpanExporter
	log     *slog.Logger
	sent    atomic.Int64
	handled *atomic.Int64 // spans handed to it, sent or not
	down    atomic.Bool
}

func (c *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := c.SpanExporter.ExportSpans(ctx, spans)
	c.handled.Add(int64(len(spans)))
	if err != nil {
		if !c.down.Swap(true) {
			c.log.Warn("otlp traces: the collector is not taking spans; spans that do not fit the queue are dropped", "err", err)
		}
		return err
	}
	if c.down.Swap(false) {
		c.log.Info("otlp traces: the collector is back")
	}
	c.sent.Add(int64(len(spans)))
	return nil
}

// endCounter counts ended spans, so that Close can say how many were
// lost.
type endCounter struct{ n *atomic.Int64 }

func (e endCounter) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (e endCounter) OnEnd(s sdktrace.ReadOnlySpan) {
	if s.SpanContext().IsSampled() {
		e.n.Add(1)
	}
}
func (e endCounter) Shutdown(context.Context) error   { return nil }
func (e endCounter) ForceFlush(context.Context) error { return nil }
