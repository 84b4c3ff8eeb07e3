package governance

import (
	"cmp"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// TestAuditContent: --audit-content decides how a completed tool call's
// output is kept: digest (the default) keeps a long text as a digest
// record, full keeps its redacted head as before; the mode is recorded in
// bridge.start, the chain verifies either way, and an unknown mode is
// refused before anything is written.
func TestAuditContent(t *testing.T) {
	text := strings.Repeat("the build failed on line twelve ", 600) // 19,200 bytes
	for _, tt := range []struct {
		mode, want, refused string
	}{
		{mode: "", want: `"$digest":true`},
		{mode: "digest", want: `"$digest":true`},
		{mode: "full", want: `"$truncated":true`},
		{mode: "hash", refused: `--audit-content: audit content "hash": want digest or full`},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "audit.jsonl")
			s, err := NewSetup(SetupOptions{AuditFile: file, AuditContent: tt.mode})
			if tt.refused != "" {
				if err == nil || err.Error() != tt.refused {
					t.Fatalf("NewSetup: %v, want %q", err, tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			h := sessionHarness(t, EnforceOptions{Audit: s.Audit})
			h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"r1","title":"Read a.txt","kind":"read","status":"in_progress","locations":[{"path":%q}]}}}`, h.root+"/a.txt")
			h.nextAtIDE()
			h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"r1","status":"completed","content":[{"type":"content","content":{"type":"text","text":%q}}]}}}`, text)
			h.nextAtIDE()
			h.marker()
			s.Close()
			entries := audittest.VerifiedEntries(t, file)
			var start, done *audit.Entry
			for i, e := range entries {
				switch {
				case e.Action == "bridge.start":
					start = &entries[i]
				case e.Action == "tool.call" && len(e.Output) > 0:
					done = &entries[i]
				}
			}
			if start == nil || done == nil {
				t.Fatalf("no bridge.start or completed tool.call among %d records", len(entries))
			}
			var in struct{ AuditContent string }
			json.Unmarshal(start.Input, &in)
			if want := cmp.Or(tt.mode, "digest"); in.AuditContent != want {
				t.Errorf("bridge.start auditContent %q, want %q", in.AuditContent, want)
			}
			if !strings.Contains(string(done.Output), tt.want) {
				t.Errorf("output %.300s, want %s", done.Output, tt.want)
			}
		})
	}
}

// TestEventSizeCountsToolOutput: the audit queue's byte budget counts a
// tool's output (audit.ToolOutput) as output and as the mirror's result,
// or a queue of small-looking records could hold gigabytes.
func TestEventSizeCountsToolOutput(t *testing.T) {
	out := audit.ToolOutput(strings.Repeat("x", 1<<20))
	for _, tt := range []struct {
		name string
		ev   audit.Event
		min  int
	}{
		{"output", audit.Event{Output: out}, 1 << 20},
		{"mirror result", audit.Event{Metadata: map[string]any{"toolCall": audit.ToolCall{Result: out}}}, 1 << 20},
		{"both", audit.Event{Output: out, Metadata: map[string]any{"toolCall": audit.ToolCall{Error: out}}}, 2 << 20},
	} {
		if got := eventSize(tt.ev); got < tt.min {
			t.Errorf("%s: eventSize %d, want at least %d", tt.name, got, tt.min)
		}
	}
}
