package audit

import (
	"path/filepath"
	"testing"
)

// TestAppendSyncSeq: AppendSyncSeq returns the seq the record was written
// under, which a later record names (governance's tool.refused names the
// approval.recorded that refused the call), and -1 for an event the log
// could not write (its audit.unrecorded record stands in its place).
func TestAppendSyncSeq(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "audit.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ev := Event{Actor: Actor{ID: "user:ide"}, Action: "approval.recorded", Subject: Subject{Kind: "tool-call", Ref: "c1"}}
	for want := int64(0); want < 3; want++ {
		seq, err := l.AppendSyncSeq(ev)
		if err != nil || seq != want {
			t.Fatalf("AppendSyncSeq #%d = %d, %v; want %d", want, seq, err, want)
		}
	}
	bad := ev
	bad.Action = "Not An Action"
	if seq, err := l.AppendSyncSeq(bad); err == nil || seq != -1 {
		t.Errorf("AppendSyncSeq of an invalid event = %d, %v; want -1 and an error", seq, err)
	}
}
