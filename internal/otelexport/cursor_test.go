package otelexport

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// TestCursorNotTrusted: a cursor file that does not match the log (ahead
// of its end, or naming another hash at its seq) does not make the reader
// skip events: it reads from the start, or from the mismatching seq, and
// reports an anomaly. A matching cursor resumes after it.
func TestCursorNotTrusted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	governedLog(t, path, "s")
	entries, err := audit.ReadEntries(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		cursor    Cursor
		first     int64
		anomalies int
	}{
		{"none", Cursor{Seq: -1}, 0, 0},
		{"matching", Cursor{Seq: 2, Hash: entries[2].Hash}, 3, 0},
		{"ahead of the log", Cursor{Seq: 1000000, Hash: "x"}, 0, 1},
		{"another hash", Cursor{Seq: 2, Hash: entries[1].Hash}, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &logReader{path: path, next: tc.cursor.Seq + 1, prev: tc.cursor.Hash, cursor: tc.cursor}
			defer r.close()
			got, err := r.read(100)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 || got[0].Seq != tc.first || got[len(got)-1].Seq != entries[len(entries)-1].Seq {
				t.Fatalf("read %d events from seq %d, want from %d to %d", len(got), seqAt(got, 0), tc.first, entries[len(entries)-1].Seq)
			}
			if a := r.takeAnomalies(); len(a) != tc.anomalies {
				t.Errorf("%d anomalies (%v), want %d", len(a), a, tc.anomalies)
			}
		})
	}
}

func seqAt(es []audit.Entry, i int) int64 {
	if i < len(es) {
		return es[i].Seq
	}
	return -1
}

// TestSaveCursorNoFollow: a link left at the cursor's temporary name is
// replaced, not written through.
func TestSaveCursorNoFollow(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o600)
	path := filepath.Join(dir, ".audit.jsonl.otlp-cursor")
	if err := os.Symlink(target, path+".tmp"); err != nil {
		t.Fatal(err)
	}
	if err := SaveCursor(path, Cursor{Seq: 3, Hash: "h"}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep" {
		t.Fatalf("the link's target was written: %q", data)
	}
	if c, err := LoadCursor(path); err != nil || c.Seq != 3 {
		t.Fatalf("LoadCursor: %+v, %v", c, err)
	}
}
