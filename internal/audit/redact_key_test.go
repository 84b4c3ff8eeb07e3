package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// shortKeySecrets are member names of 16 bytes or fewer that hold a
// secret a rule finds: a name=value pair, URL credentials, a Slack token.
// An agent chooses the member names of its tool's input and output as
// freely as their values.
var shortKeySecrets = []struct{ key, secret string }{
	{"pwd=Hunt3rXy9", "Hunt3rXy9"},
	{"token=Sup3rS3c", "Sup3rS3c"},
	{"https://u:Pw0rdQ@h", "Pw0rdQ"},
	{"xoxb-9876543210", "xoxb-9876543210"},
}

// TestSecretInShortKey checks that a secret in a member name never
// reaches the file, whichever way the record is encoded: the input (the
// tree), the metadata (appendMap), a tool's output under ContentDigest
// (scanOutput) and ContentFull.
func TestSecretInShortKey(t *testing.T) {
	for _, mode := range []ContentMode{ContentDigest, ContentFull} {
		var evs []Event
		for _, c := range shortKeySecrets {
			evs = append(evs, Event{
				Actor:    Actor{ID: "agent:x"},
				Action:   "tool.call",
				Subject:  Subject{Kind: "tool-call", Ref: "call-1"},
				Input:    map[string]any{"command": "echo hi", c.key: true},
				Output:   ToolOutput(`[{"type":"content","content":{"type":"text","text":"ok"}},{"` + c.key + `":1}]`),
				Metadata: map[string]any{c.key: 1},
			}, Event{
				Actor:   Actor{ID: "agent:x"},
				Action:  "tool.call",
				Subject: Subject{Kind: "tool-call", Ref: "call-2"},
				Output:  ToolOutput(`{"` + c.key + `":{"name":"x","value":"y"}}`),
			})
		}
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		writeLog(t, path, Options{Content: mode}, evs)
		if _, err := Verify(path); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range shortKeySecrets {
			if bytes.Contains(data, []byte(c.secret)) {
				t.Errorf("content mode %d: the secret of the member name %q is in the file", mode, c.key)
			}
		}
	}
}
