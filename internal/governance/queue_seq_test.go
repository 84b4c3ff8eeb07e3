package governance

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// TestQueuedRecorderAppendSyncSeq: a record written through the queue
// gets the seq its recorder gave it, after every record queued before it;
// a recorder that does not tell seqs gives -1.
func TestQueuedRecorderAppendSyncSeq(t *testing.T) {
	rec := &fakeRecorder{}
	q := NewQueuedRecorder(rec, nil)
	defer q.Close()
	for i := 0; i < 5; i++ {
		if err := q.Append(audit.Event{Action: "before"}); err != nil {
			t.Fatal(err)
		}
	}
	if seq, err := q.AppendSyncSeq(audit.Event{Action: "named"}); err != nil || seq != 5 {
		t.Fatalf("AppendSyncSeq = %d, %v; want 5", seq, err)
	}
	plain := NewQueuedRecorder(syncOnly{rec}, nil)
	defer plain.Close()
	if seq, err := plain.AppendSyncSeq(audit.Event{Action: "unnamed"}); err != nil || seq != -1 {
		t.Fatalf("AppendSyncSeq through a recorder without seqs = %d, %v; want -1", seq, err)
	}
}

// syncOnly is a Recorder that does not tell seqs.
type syncOnly struct{ r *fakeRecorder }

func (s syncOnly) Append(ev audit.Event) error     { return s.r.Append(ev) }
func (s syncOnly) AppendSync(ev audit.Event) error { return s.r.AppendSync(ev) }
func (s syncOnly) Healthy() error                  { return s.r.Healthy() }
