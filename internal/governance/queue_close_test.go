package governance

import (
	"testing"
	"testing/synctest"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// TestQueuedRecorderAppendDuringClose: an Append or AppendSync made while
// Close is still handing queued records over is written after them, not
// chained ahead of records made before it. It runs in a testing/synctest
// bubble: Wait returns once the writer sits at the gate with the first
// record and Close and the late appends are blocked or done.
func TestQueuedRecorderAppendDuringClose(t *testing.T) {
	for _, tt := range []struct {
		name   string
		append func(*QueuedRecorder, audit.Event) error
	}{
		{"Append", (*QueuedRecorder).Append},
		{"AppendSync", (*QueuedRecorder).AppendSync},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := &gatedRecorder{gate: make(chan struct{})}
				q := NewQueuedRecorder(rec, nil)
				if err := q.Append(audit.Event{Action: "queued"}); err != nil {
					t.Fatal(err)
				}
				synctest.Wait() // the writer lingers, then takes "queued" and waits at the gate
				closed := make(chan struct{})
				go func() { q.Close(); close(closed) }()
				synctest.Wait() // Close has marked the queue closed and waits for the writer
				late := make(chan error, 1)
				go func() { late <- tt.append(q, audit.Event{Action: "late"}) }()
				synctest.Wait()
				close(rec.gate) // every record through
				if err := <-late; err != nil {
					t.Fatal(err)
				}
				<-closed
				var got []string
				for _, e := range rec.events {
					got = append(got, e.ev.Action)
				}
				if len(got) != 2 || got[0] != "queued" || got[1] != "late" {
					t.Fatalf("records written in the order %v, want [queued late]", got)
				}
			})
		})
	}
}
