package audittest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// Rechain writes, at path, a fresh chain of the events of entries that
// keep accepts, as an agent that outlived the bridge could: each event
// keeps its time and run id, every hash is valid and the chain starts at
// GENESIS. It fails the test if that chain does not verify on its own.
func Rechain(tb testing.TB, path string, entries []audit.Entry, keep func(*audit.Entry) bool) {
	tb.Helper()
	var kept []audit.Entry
	for _, e := range entries {
		if keep(&e) {
			kept = append(kept, e)
		}
	}
	i := 0
	opts := audit.Options{Now: func() time.Time {
		if i < len(kept) {
			return kept[i].Time
		}
		return time.Now()
	}}
	if len(entries) > 0 {
		opts.RunID = entries[0].RunID
	}
	l, err := audit.Open(path, opts)
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range kept {
		if err := l.AppendSync(eventOf(&e)); err != nil {
			tb.Fatal(err)
		}
		i++
	}
	if err := l.Close(); err != nil {
		tb.Fatal(err)
	}
	if sum, err := audit.Verify(path); err != nil || !sum.Genesis {
		tb.Fatalf("the rechained log does not verify on its own: %v", err)
	}
}

// eventOf is the event e records, as the writer is given it again: the
// policyRule the writer derives from the policy is left for it to derive.
func eventOf(e *audit.Entry) audit.Event {
	var meta map[string]any
	if e.Metadata != nil {
		json.Unmarshal(e.Metadata, &meta)
		delete(meta, "policyRule")
	}
	ev := audit.Event{Actor: e.Actor, Action: e.Action, Subject: e.Subject, Policy: e.Policy, Metadata: meta}
	if e.Input != nil {
		ev.Input = e.Input
	}
	if e.Output != nil {
		ev.Output = e.Output
	}
	return ev
}
