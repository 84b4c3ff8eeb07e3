package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gowebpki/jcs"
)

// TestLogWithoutRunID: a log whose records carry no runId (docs/audit.md:
// the member is beyond AIP-7's shape) still verifies, and the views treat
// its records as one run: the session the two runs of viewsLog share is one
// row of Sessions instead of two.
func TestLogWithoutRunID(t *testing.T) {
	src := readLines(t, viewsLog(t))
	var out bytes.Buffer
	prev := Genesis
	for i, line := range src {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		delete(m, "runId")
		delete(m, "hash")
		m["prevHash"] = prev
		hashAlg, meta := m["hashAlg"], m["metadata"]
		delete(m, "hashAlg")
		delete(m, "metadata")
		raw, _ := json.Marshal(m)
		canon, err := jcs.Transform(raw)
		if err != nil {
			t.Fatal(err)
		}
		prev = hashHex(canon)
		m["hash"], m["hashAlg"] = prev, hashAlg
		if meta != nil {
			m["metadata"] = meta
		}
		raw, _ = json.Marshal(m)
		if canon, err = jcs.Transform(raw); err != nil {
			t.Fatal(err)
		}
		out.Write(append(canon, '\n'))
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	sum, err := Verify(path)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if sum.Records != len(src) {
		t.Errorf("Verify counted %d events, want %d", sum.Records, len(src))
	}
	sessions := Sessions(readLog(t, path))
	if len(sessions) != 1 || sessions[0].ID != "sess-1" || sessions[0].Run != "" {
		t.Errorf("Sessions = %+v, want one row for sess-1 with no run", sessions)
	}
}
