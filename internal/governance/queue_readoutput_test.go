package governance

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// copyingRecorder is a Recorder that does not read tools' output ahead:
// the Enforcer gives it copies of the bytes (audit.ToolOutput).
type copyingRecorder struct{ r Recorder }

func (c copyingRecorder) Append(ev audit.Event) error     { return c.r.Append(ev) }
func (c copyingRecorder) AppendSync(ev audit.Event) error { return c.r.AppendSync(ev) }
func (c copyingRecorder) Healthy() error                  { return c.r.Healthy() }

// TestReadOutputRecords: the records of tool calls whose output the
// Enforcer has the log read while the message is there (through the
// queue, audit.Log.ReadValidToolOutput) hold what the records of the same
// calls hold when it hands the log copies of the bytes, in both content
// modes: completed and failed calls, long and short outputs, rawOutput
// and content.
func TestReadOutputRecords(t *testing.T) {
	long := strings.Repeat("the build failed on line twelve ", 600)
	for _, mode := range []audit.ContentMode{audit.ContentDigest, audit.ContentFull} {
		t.Run(mode.String(), func(t *testing.T) {
			run := func(readAhead bool) []map[string]any {
				file := filepath.Join(t.TempDir(), "audit.jsonl")
				at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
				l, err := audit.Open(file, audit.Options{Content: mode, RunID: "run-1", Now: func() time.Time { return at }})
				if err != nil {
					t.Fatal(err)
				}
				q := NewQueuedRecorder(l, nil)
				var rec Recorder = q
				if !readAhead {
					rec = copyingRecorder{q}
				}
				if _, reads := rec.(outputReader); reads != readAhead {
					t.Fatalf("recorder reads outputs: %v, want %v", reads, readAhead)
				}
				h := sessionHarness(t, EnforceOptions{Audit: rec})
				for i, u := range []string{
					`"status":"completed","content":[{"type":"content","content":{"type":"text","text":"` + long + `"}}]`,
					`"status":"completed","rawOutput":{"stdout":"ok","token":"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"}`,
					`"status":"failed","rawOutput":"` + long + `"`,
					`"status":"failed"`,
					`"status":"completed","content":[{"type":"diff","path":"%[1]s/a.txt","oldText":"` + long + `","newText":"x"}]`,
				} {
					id := "r" + string(rune('0'+i))
					h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":%q,"title":"Read a.txt","kind":"read","status":"in_progress","locations":[{"path":%q}]}}}`, id, h.root+"/a.txt")
					h.nextAtIDE()
					h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":%q,`+h.rooted(u)+`}}}`, id)
					h.nextAtIDE()
				}
				h.marker()
				q.Close()
				if err := l.Close(); err != nil {
					t.Fatal(err)
				}
				entries, err := audit.ReadEntries(file)
				if err != nil {
					t.Fatal(err)
				}
				var out []map[string]any
				for _, e := range entries {
					if e.Action != "tool.call" {
						continue
					}
					// What the record says, the workspace (a directory of
					// each run's own) named alike.
					var m map[string]any
					line := strings.ReplaceAll(string(e.Raw), h.root, "/ws")
					if err := json.Unmarshal([]byte(line), &m); err != nil {
						t.Fatal(err)
					}
					for _, k := range []string{"hash", "prevHash", "metadataHash", "seq"} {
						delete(m, k)
					}
					out = append(out, m)
				}
				return out
			}
			got, want := run(true), run(false)
			if len(got) != 5 || len(got) != len(want) {
				t.Fatalf("%d tool.call records read ahead, %d from copies; want 5 each", len(got), len(want))
			}
			for i := range got {
				g, _ := json.Marshal(got[i])
				w, _ := json.Marshal(want[i])
				if string(g) != string(w) {
					t.Errorf("record %d read ahead:\n%s\nfrom a copy:\n%s", i, g, w)
				}
			}
		})
	}
}

// TestEventSizeCountsReadOutput: the queue's byte budget counts a tool's
// output read ahead by what it holds.
func TestEventSizeCountsReadOutput(t *testing.T) {
	l, err := audit.Open(filepath.Join(t.TempDir(), "audit.jsonl"), audit.Options{Content: audit.ContentFull})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	read := l.ReadToolOutput([]byte(`{"stdout":"` + strings.Repeat("x ", 2000) + `"}`))
	r, ok := read.(*audit.ReadOutput)
	if !ok {
		t.Fatalf("ReadToolOutput = %T", read)
	}
	if got := eventSize(audit.Event{Output: r, Metadata: map[string]any{"toolCall": audit.ToolCall{Result: r}}}); got < 2*r.Len() {
		t.Errorf("eventSize %d, want at least %d", got, 2*r.Len())
	}
}
