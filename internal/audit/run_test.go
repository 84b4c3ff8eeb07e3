package audit

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestRunIDInEveryEvent checks that each Log stamps its own run id on
// every event it writes, that the id is covered by the hash, and that a
// bad id is refused.
func TestRunIDInEveryEvent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	evs := sampleEvents()
	writeLog(t, path, Options{}, evs[:3])
	writeLog(t, path, Options{}, evs[3:])
	var runs []string
	for i, line := range readLines(t, path) {
		e, ok := parseEntry(line)
		if !ok || e.RunID == "" {
			t.Fatalf("line %d has no runId: %s", i+1, line)
		}
		if len(runs) == 0 || runs[len(runs)-1] != e.RunID {
			runs = append(runs, e.RunID)
		}
	}
	if len(runs) != 2 {
		t.Fatalf("runs %q, want two distinct runs in order", runs)
	}
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
	// The run id is hashed: changing it breaks the event's hash.
	line := readLines(t, path)[0]
	forged := bytes.Replace(line, []byte(runs[0]), []byte("20000101T000000Z-00000000"), 1)
	if _, err := checkLine(forged); err == nil {
		t.Error("an event with another run id still verifies")
	}
	for _, bad := range []string{"has space", "-leading-dash", "ok\n", string(bytes.Repeat([]byte("a"), 65))} {
		if l, err := Open(filepath.Join(t.TempDir(), "a.jsonl"), Options{RunID: bad}); err == nil {
			l.Close()
			t.Errorf("Open with run id %q succeeded", bad)
		}
	}
}
