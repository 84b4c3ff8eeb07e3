package governance

import (
	"fmt"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

func TestQueuedRecorderKeepsOrder(t *testing.T) {
	rec := &fakeRecorder{}
	q := NewQueuedRecorder(rec, nil)
	for i := 0; i < 1000; i++ {
		ev := audit.Event{Action: fmt.Sprintf("a%d", i)}
		if i%100 == 99 {
			if err := q.AppendSync(ev); err != nil {
				t.Fatal(err)
			}
			// Everything before a synced record is written with it.
			rec.mu.Lock()
			n := len(rec.events)
			rec.mu.Unlock()
			if n != i+1 {
				t.Fatalf("after AppendSync #%d, %d records written; want %d", i, n, i+1)
			}
			continue
		}
		if err := q.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	q.Close()
	if err := q.Append(audit.Event{Action: "after-close"}); err != nil {
		t.Fatal(err)
	}
	if len(rec.events) != 1001 {
		t.Fatalf("%d records, want 1001", len(rec.events))
	}
	for i, e := range rec.events[:1000] {
		if want := fmt.Sprintf("a%d", i); e.ev.Action != want || e.sync != (i%100 == 99) {
			t.Fatalf("record %d = %s (sync %v), want %s", i, e.ev.Action, e.sync, want)
		}
	}
}
