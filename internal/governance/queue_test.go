package governance

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

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

// gatedRecorder writes a record only when the test lets it through gate.
type gatedRecorder struct {
	fakeRecorder
	gate chan struct{}
}

func (r *gatedRecorder) Append(ev audit.Event) error {
	<-r.gate
	return r.fakeRecorder.Append(ev)
}

// TestQueuedRecorderBoundsBytes: Append waits while the records queued
// would exceed the byte budget, however few they are; a record larger than
// the budget is queued alone; every record is written, in order. It runs in
// a testing/synctest bubble, so "Append waits" is checked once every
// goroutine is blocked rather than after a guessed delay.
func TestQueuedRecorderBoundsBytes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &gatedRecorder{gate: make(chan struct{})}
		const budget = 10_000
		q := newQueuedRecorder(rec, nil, budget)
		big := func(i, n int) audit.Event {
			return audit.Event{Action: fmt.Sprintf("a%d", i), Output: json.RawMessage(`"` + strings.Repeat("x", n) + `"`)}
		}
		if err := q.Append(big(0, 6000)); err != nil { // taken by the writer, which waits at the gate
			t.Fatal(err)
		}
		if err := q.Append(big(1, 3000)); err != nil { // fits beside it
			t.Fatal(err)
		}
		if got := q.queuedBytes(); got < 9000 || got > budget {
			t.Fatalf("%d bytes queued, want 9000 to %d", got, budget)
		}
		third := make(chan error, 1)
		go func() { third <- q.Append(big(2, 6000)) }()
		// Every goroutine of the bubble is blocked once Wait returns: the
		// writer at the gate and, unless it failed to wait, the third Append.
		synctest.Wait()
		select {
		case <-third:
			t.Fatal("Append did not wait with the byte budget spent")
		default:
		}
		rec.gate <- struct{}{} // a0 written: a2 fits now
		if err := <-third; err != nil {
			t.Fatal(err)
		}
		huge := make(chan error, 1)
		go func() { huge <- q.Append(big(3, 3*budget)) }()
		go func() {
			for range 3 {
				rec.gate <- struct{}{}
			}
		}()
		if err := <-huge; err != nil {
			t.Fatal(err)
		}
		q.Close()
		if got := q.queuedBytes(); got != 0 {
			t.Fatalf("%d bytes counted after Close, want 0", got)
		}
		if len(rec.events) != 4 {
			t.Fatalf("%d records written, want 4", len(rec.events))
		}
		for i, e := range rec.events {
			if want := fmt.Sprintf("a%d", i); e.ev.Action != want {
				t.Fatalf("record %d = %s, want %s", i, e.ev.Action, want)
			}
		}
	})
}

// countingRecorder is a fakeRecorder that says how many records it has.
type countingRecorder struct{ fakeRecorder }

func (r *countingRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// TestQueuedRecorderLingers: records from Append wait, without waking the
// writer, until Linger passes or LingerRecords of them are queued; an
// AppendSync takes them at once; Close writes what lingers. It runs in a
// testing/synctest bubble, where time passes only when every goroutine
// waits, so the fake clock says how long the records lingered.
func TestQueuedRecorderLingers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &countingRecorder{}
		q := NewQueuedRecorder(rec, nil)
		defer q.Close()
		synctest.Wait() // the writer waits for records
		start := time.Now()
		for i := range 3 {
			if err := q.Append(audit.Event{Action: fmt.Sprintf("a%d", i)}); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		if n := rec.count(); n != 0 {
			t.Fatalf("%d records written at once, want them to linger", n)
		}
		time.Sleep(Linger - time.Nanosecond)
		synctest.Wait()
		if n := rec.count(); n != 0 {
			t.Fatalf("%d records written before the linger passed, want 0", n)
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if n, waited := rec.count(), time.Since(start); n != 3 || waited != Linger {
			t.Fatalf("%d records written after %v, want 3 after %v", n, waited, Linger)
		}
		start = time.Now()
		for i := range LingerRecords {
			if err := q.Append(audit.Event{Action: fmt.Sprintf("b%d", i)}); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		if n, waited := rec.count(), time.Since(start); n != 3+LingerRecords || waited != 0 {
			t.Fatalf("%d records written after %v, want all %d at once", n, waited, 3+LingerRecords)
		}
		start = time.Now()
		if err := q.Append(audit.Event{Action: "c0"}); err != nil {
			t.Fatal(err)
		}
		if err := q.AppendSync(audit.Event{Action: "c1"}); err != nil {
			t.Fatal(err)
		}
		if n, waited := rec.count(), time.Since(start); n != 5+LingerRecords || waited != 0 {
			t.Fatalf("%d records written after AppendSync, %v later; want %d at once", n, waited, 5+LingerRecords)
		}
		if err := q.Append(audit.Event{Action: "d0"}); err != nil {
			t.Fatal(err)
		}
		start = time.Now()
		q.Close()
		if n, waited := rec.count(), time.Since(start); n != 6+LingerRecords || waited != 0 {
			t.Fatalf("%d records written by Close, %v later; want %d at once", n, waited, 6+LingerRecords)
		}
	})
}
