package otelexport

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// TestForgedLines: lines the agent appends to the log file itself (a seq
// far ahead, an altered hash, a valid event of another chain, garbage) are
// not exported and do not stop the export of the real events after them;
// each is reported as an anomaly.
func TestForgedLines(t *testing.T) {
	col := otelcoltest.Start(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	l := openLog(t, path, audit.Options{})
	governedSession(t, l, "s1")
	entries, err := audit.ReadEntries(path)
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	// A valid event of another chain, with the seq the real log needs next.
	other := filepath.Join(dir, "other.jsonl")
	ol := openLog(t, other, audit.Options{})
	for range last.Seq + 2 {
		governedSession(t, ol, "other")
	}
	ol.Close()
	otherEntries, _ := audit.ReadEntries(other)
	var foreign []byte
	for _, e := range otherEntries {
		if e.Seq == last.Seq+1 {
			foreign = e.Raw
		}
	}
	forged := [][]byte{
		bytes.Replace(last.Raw, []byte(`"seq":`), []byte(`"seq":1000000000,"x":`), 1),
		bytes.Replace(last.Raw, []byte(`"action":"session.end"`), []byte(`"action":"session.xnd"`), 1),
		foreign,
		[]byte(`not json at all`),
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range forged {
		f.Write(append(line, '\n'))
	}
	f.Close()
	governedSession(t, l, "s2")
	l.Close()

	x := newExporter(t, path, col.Endpoint())
	x.Start()
	all, err := audit.ReadEntries(path)
	if err != nil {
		t.Fatal(err)
	}
	want := all[len(all)-1].Seq // the real log's last event
	rs := col.WaitRecords(func(rs []otelcoltest.Received) bool {
		for _, r := range rs {
			if r.EventName == CheckpointEvent && r.Int(AttrSeq) == want {
				return true
			}
		}
		return false
	})
	if pending, err := x.Close(5 * time.Second); pending != 0 || err != nil {
		t.Fatalf("Close: %d pending, %v", pending, err)
	}
	var seqs []int64
	anomalies := 0
	for _, r := range rs {
		switch r.EventName {
		case CheckpointEvent:
		case AnomalyEvent:
			anomalies++
		default:
			seqs = append(seqs, r.Int(AttrSeq))
			if strings.Contains(r.Body, "session.xnd") || strings.Contains(r.Body, "1000000000") || r.Attrs[AttrRunID] != last.RunID {
				t.Errorf("a forged line was exported: %s", r.Body)
			}
		}
	}
	for _, r := range rs {
		t.Logf("%s %s %s", r.EventName, r.Attrs[AttrSeq], r.Attrs[AttrReason])
	}
	if int64(len(seqs)) != want+1 {
		t.Errorf("exported seqs %v, want 0..%d", seqs, want)
	}
	for i, s := range seqs {
		if s != int64(i) {
			t.Fatalf("exported seqs %v, want 0..%d in order", seqs, want)
		}
	}
	if anomalies != len(forged) {
		t.Errorf("%d anomalies reported, want %d", anomalies, len(forged))
	}
}
