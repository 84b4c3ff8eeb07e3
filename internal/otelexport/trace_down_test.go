package otelexport

import (
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// TestTracerCollectorDown: with the collector refusing connections or
// never answering, ending spans never waits, even with the queue full, and
// Close takes about its timeout and counts every span as lost.
func TestTracerCollectorDown(t *testing.T) {
	for _, c := range []struct {
		name     string
		endpoint func(testing.TB) string
	}{
		{"refused", otelcoltest.RefusingEndpoint},
		{"never answers", otelcoltest.HungEndpoint},
	} {
		t.Run(c.name, func(t *testing.T) {
			const spans = 20000
			// A 2 min request timeout: an exporter that made ending a span
			// wait for the collector would take that long at least. The
			// bound on the wall time is far below it, and far above what
			// ending the spans takes without waiting on a loaded machine
			// (10.6 s under go test -race at a load average of 50).
			const timeout, bound = 2 * time.Minute, 30 * time.Second
			tr, err := NewTracer(t.Context(), TraceConfig{Endpoint: c.endpoint(t), QueueSize: 8, Timeout: timeout})
			if err != nil {
				t.Fatal(err)
			}
			tr.Start()
			start := time.Now()
			for range spans {
				_, s := tr.tr.Start(tr.rootCtx, "s")
				s.End()
			}
			if d := time.Since(start); d > bound {
				t.Errorf("ending %d spans took %v with the collector down", spans, d)
			}
			start = time.Now()
			lost, _ := tr.Close(300 * time.Millisecond)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Close(300ms) took %v", d)
			}
			if lost != spans+1 || tr.Sent() != 0 {
				t.Errorf("Close reported %d lost, %d sent; want %d lost (the spans and the run's)", lost, tr.Sent(), spans+1)
			}
		})
	}
}
