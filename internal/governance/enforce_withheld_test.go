package governance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/manifest"
)

// TestWithheldCapabilityRefusedBeforeJudged: a call of the agent's that
// needs a capability the manifest withholds is refused here, answered as
// manifest.Mask answers it (-32601), and recorded as a refusal, before it
// is judged: no decision allowing it, and no question to the person, is in
// the log. A call the manifest grants is judged as before.
func TestWithheldCapabilityRefusedBeforeJudged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fs-off")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "---\nname: fs-off\nid: fs-off\ndescription: Withholds the file system writes and the terminal.\nversion: 0.1.0\nkind: bridge\n" +
		"transport: [stdio]\nmetadata:\n  aip44:\n    acp_rev: b33c886e8cb69d9f3b4743140a08741495e0a421\n    tier: governance-aware\n" +
		"    capabilities:\n      client:\n        fs:\n          readTextFile: true\n          writeTextFile: false\n        terminal: false\n---\n# fs-off\n"
	if err := os.WriteFile(filepath.Join(dir, "ACP.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load(filepath.Join(dir, "ACP.md"))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, EnforceOptions{Manifest: m}, true)
	h.openSession()
	for i, tt := range []struct {
		name, line string
		withheld   bool
	}{
		{"write", `{"jsonrpc":"2.0","id":%d,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"x"}}`, true},
		{"terminal", `{"jsonrpc":"2.0","id":%d,"method":"terminal/create","params":{"sessionId":"s1","command":"touch","args":["y"],"cwd":%q}}`, true},
		{"terminal output", `{"jsonrpc":"2.0","id":%d,"method":"terminal/output","params":{"sessionId":"s1","terminalId":"t1","x":%q}}`, true},
		{"read", `{"jsonrpc":"2.0","id":%d,"method":"fs/read_text_file","params":{"sessionId":"s1","path":%q}}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := len(h.rec.find("message.refused", "deny"))
			target := filepath.Join(h.root, "a.txt")
			if tt.name == "terminal" {
				target = h.root
			}
			h.agent(tt.line, 100+i, target)
			if !tt.withheld {
				if m := h.nextAtIDE(); m["method"] != "fs/read_text_file" {
					t.Fatalf("IDE got %v, want the granted read", m)
				}
				return
			}
			m := h.nextAtAgent()
			if code, _ := get(m, "error", "code").(float64); code != -32601 {
				t.Fatalf("agent got %v, want -32601 as the manifest answers", m)
			}
			if got := len(h.rec.find("message.refused", "deny")); got != before+1 {
				t.Errorf("%d message.refused records, want %d", got, before+1)
			}
		})
	}
	h.marker()
	for _, action := range []string{"fs.write", "terminal.create", "approval.recorded"} {
		if evs := h.rec.find(action, ""); len(evs) != 0 {
			t.Errorf("the log holds %s records %v for calls the manifest withholds", action, evs)
		}
	}
}
