package otelexport

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// slowKeep is keep with a collector that takes a while over each export.
type slowKeep struct {
	keep
	delay time.Duration
}

func (s slowKeep) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	time.Sleep(s.delay)
	return s.keep.ExportSpans(ctx, spans)
}

// TestToolSpansWaitForQueueRoom: a burst of denied tool calls, many times
// the export queue, reaching a collector slower than the audit log's
// reader, arrives whole: every denial is a span the collector receives,
// whether the reader meets it while the bridge runs or at its stop, and
// none is counted lost.
func TestToolSpansWaitForQueueRoom(t *testing.T) {
	for _, c := range []struct {
		name string
		poll time.Duration
	}{
		{"while running", time.Millisecond},
		{"at stop", time.Hour},
	} {
		t.Run(c.name, func(t *testing.T) {
			const calls, queue = 400, 32
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l := openLog(t, path, audit.Options{RunID: "run-1"})
			mem := tracetest.NewInMemoryExporter()
			tr, err := newTracer(t.Context(), TraceConfig{LogPath: path, RunID: "run-1", Poll: c.poll, Agent: "probe", QueueSize: queue},
				slowKeep{keep{mem}, 2 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			tr.Start()
			for i := range calls {
				if err := l.AppendSync(toolEvent("tool.call", "c"+strconv.Itoa(i), "Bash", "pending", "deny", "deny Bash(rm:*) (G.md:4)")); err != nil {
					t.Fatal(err)
				}
			}
			l.Close()
			lost, err := tr.Close(time.Minute)
			if err != nil || lost != 0 {
				t.Errorf("Close: %d spans lost, %v", lost, err)
			}
			denied := map[string]bool{}
			for _, s := range mem.GetSpans() {
				if attr(s, AttrToolStatus) == "denied" {
					denied[attr(s, "gen_ai.tool.call.id")] = true
				}
			}
			if len(denied) != calls {
				t.Errorf("the collector received %d of %d denied calls' spans", len(denied), calls)
			}
		})
	}
}
