package compress

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// sourceFile returns about n bytes of Go-like source with needle on one
// line in the middle.
func sourceFile(n int, needle string) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i == 9000 {
			fmt.Fprintf(&b, "// %s\n", needle)
			continue
		}
		fmt.Fprintf(&b, "func handler%05d(w http.ResponseWriter, r *http.Request) { writeJSON(w, lookup(r.Context(), %d)) }\n", i, i*31%977)
	}
	return b.String()
}

// agentTokens is what the measurement counts: the o200k tokens of every
// string the agent receives in the prompt or the read result (the text that
// would enter its model's context).
func agentTokens(t *testing.T, msg []byte) int {
	t.Helper()
	var v any
	if err := json.Unmarshal(msg, &v); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte('\n')
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				if k != "jsonrpc" && k != "method" && k != "id" && k != "sessionId" {
					walk(e)
				}
			}
		}
	}
	if p, ok := rawjson.Get(msg, "params", "prompt"); ok {
		_ = json.Unmarshal(p, &v)
	} else if r, ok := rawjson.Get(msg, "result"); ok {
		_ = json.Unmarshal(r, &v)
	}
	walk(v)
	return CountTokens(b.String())
}

// TestTokensReachingAgent reproduces, on the wire, the end-to-end token
// measurement: a 1 MB file embedded in a prompt (what Claude Code's IDE
// sends) and a 1 MB fs/read_text_file result (what a Gemini-style agent
// reads through the client), counted in o200k tokens as the agent receives
// them, with and without the compression pipeline. The e2e suite counts the
// same at the fake model server with real agents.
func TestTokensReachingAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("tokenizes several megabytes")
	}
	const needle = "NEEDLE-4471: the feature flag is named orbital_parrot"
	file := sourceFile(1<<20, needle)

	scenarios := []struct {
		name string
		run  func(t *testing.T, h *harness, session string) []byte
	}{
		{"prompt with 1 MB embedded file", func(t *testing.T, h *harness, session string) []byte {
			h.ide(promptMsg(2, session, textBlock("Review this file"), map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///repo/handlers.go", "mimeType": "text/x-go", "text": file}}))
			return h.readAgent()
		}},
		{"1 MB fs/read_text_file", func(t *testing.T, h *harness, session string) []byte {
			h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 70, "method": "fs/read_text_file", "params": map[string]any{"sessionId": session, "path": "/repo/handlers.go"}}))
			h.untilIDE(func(m []byte) bool { return str(m, "method") == "fs/read_text_file" })
			h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 70, "result": map[string]any{"content": file}}))
			return h.readAgent()
		}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			// Without the pipeline: a bare bridge.
			bare := bareHarness(t)
			bare.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/repo","mcpServers":[]}}`)
			bare.readAgent()
			bare.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`)
			bare.readIDE()
			without := agentTokens(t, sc.run(t, bare, "s1"))

			h := sessionHarness(t, Config{})
			got := sc.run(t, h, "s1")
			with := agentTokens(t, got)
			saved := 100 * float64(without-with) / float64(without)
			t.Logf("%s: agent receives %d tokens without the pipeline, %d with it: %.2f%% fewer", sc.name, without, with, saved)
			if saved < 95 {
				t.Errorf("only %.2f%% fewer tokens, want at least 95%%", saved)
			}
			// Needle: the fact is only in the offloaded file, which the
			// reference names and which holds the original bytes.
			if strings.Contains(string(got), "orbital_parrot") {
				t.Fatal("needle reached the agent: nothing was offloaded")
			}
			path := offloadedPathIn(t, got)
			disk, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(disk) != file {
				t.Fatal("offloaded file differs from the original")
			}
			if !strings.Contains(string(disk), needle) {
				t.Fatal("needle not in the offloaded file")
			}
		})
	}
}

// offloadedPathIn finds the offloaded file a message refers to.
func offloadedPathIn(t *testing.T, msg []byte) string {
	t.Helper()
	if c, ok := rawjson.GetString(msg, "result", "content"); ok {
		return refPath(c)
	}
	uri, _ := rawjson.GetString(msg, "params", "prompt", "1", "uri")
	u, err := url.Parse(uri)
	if err != nil || u.Path == "" {
		t.Fatalf("no resource_link in %.300s", msg)
	}
	if ref, _ := rawjson.GetString(msg, "params", "prompt", "2", "text"); refPath(ref) != u.Path {
		t.Fatalf("reference names %q, link %q", refPath(ref), u.Path)
	}
	return u.Path
}

// bareHarness is a harness whose bridge has no middleware.
func bareHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessWith(t, nil)
}
