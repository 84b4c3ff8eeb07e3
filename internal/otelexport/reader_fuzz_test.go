package otelexport

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// TestSeedLog: testdata/session.jsonl, the fuzz seed, is a valid chain.
func TestSeedLog(t *testing.T) {
	if _, err := audit.Verify(filepath.Join("testdata", "session.jsonl")); err != nil {
		t.Fatal(err)
	}
}

// FuzzReader: whatever bytes the log file holds (the agent can write
// it), the reader returns only events that continue one chain, in seq
// order, and never panics or loops.
func FuzzReader(f *testing.F) {
	// A governed session's log, written by audit.Log (TestSeedLog keeps it current).
	data, err := os.ReadFile(filepath.Join("testdata", "session.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, int64(-1), "")
	f.Add(append(data, "garbage\n{\"seq\":99}\n"...), int64(2), "x")
	f.Add([]byte("\n\n\n"), int64(0), "")
	f.Fuzz(func(t *testing.T, content []byte, cursorSeq int64, cursorHash string) {
		if cursorSeq < -1 {
			cursorSeq = -1
		}
		if cursorSeq > 1<<40 {
			return
		}
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		if err := os.WriteFile(path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		c := Cursor{Seq: cursorSeq, Hash: cursorHash}
		r := &logReader{path: path, next: c.Seq + 1, prev: c.Hash, cursor: c}
		defer r.close()
		var all []audit.Entry
		for range 100 {
			es, err := r.read(7)
			if err != nil {
				t.Fatal(err)
			}
			if len(es) == 0 {
				break
			}
			all = append(all, es...)
		}
		for i := 1; i < len(all); i++ {
			if all[i].Seq != all[i-1].Seq+1 || all[i].PrevHash != all[i-1].Hash {
				t.Fatalf("event %d (seq %d) does not continue seq %d", i, all[i].Seq, all[i-1].Seq)
			}
		}
	})
}
