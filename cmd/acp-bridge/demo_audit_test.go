package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/golden"
)

// TestDemoAuditEvents: the events the demo's audit log holds, in order,
// with what a tool's output became in them (its rawOutput, the kept diff of
// the write), are those of testdata/demo-audit.golden. Rewrite it with
// go test ./cmd/acp-bridge -run TestDemoAuditEvents -update.
func TestDemoAuditEvents(t *testing.T) {
	ws, _ := demoSession(t)
	f, err := os.Open(filepath.Join(ws, ".acp-bridge", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			Seq     int64
			Action  string
			Actor   struct{ ID string }
			Subject struct{ Kind, Ref string }
			Policy  *struct{ Decision string }
			Output  json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%d %s %s %s:%s", r.Seq, r.Action, r.Actor.ID, r.Subject.Kind, r.Subject.Ref)
		if r.Policy != nil {
			fmt.Fprintf(&b, " %s", r.Policy.Decision)
		}
		if len(r.Output) > 0 && r.Action != "context.compress" { // its token counts follow the tokenizer
			fmt.Fprintf(&b, " output=%s", r.Output)
		}
		b.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// The offload reference the agent read names its file: its size
	// follows the workspace path's length.
	got := offloadedBytes.ReplaceAllString(normalizeDemo(b.String(), ws), `{"bytes":N,`)
	golden.Check(t, filepath.Join("testdata", "demo-audit.golden"), []byte(got))
}

var offloadedBytes = regexp.MustCompile(`\{"bytes":\d+,`)
