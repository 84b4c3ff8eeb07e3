package adapter

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// TestGeminiObserveStoresOutputAsContentSays checks that a call Gemini's
// policy engine refused keeps its content the way the audit log's
// --audit-content says: a long output becomes a digest record by default,
// and is kept whole with full.
func TestGeminiObserveStoresOutputAsContentSays(t *testing.T) {
	long := strings.Repeat("word ", 600) // 3,000 bytes: over the 1 KiB preview
	line := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update",` +
		`"toolCallId":"run_shell_command__1","status":"failed","rawInput":{"command":"cat .env"},` +
		`"content":[{"type":"content","content":{"type":"text","text":"denied by policy ` + long + `"}}]}}}`
	for _, tt := range []struct {
		mode       audit.ContentMode
		wantDigest bool
	}{
		{audit.ContentDigest, true},
		{audit.ContentFull, false},
	} {
		t.Run(tt.mode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			log, err := audit.Open(path, audit.Options{Content: tt.mode})
			if err != nil {
				t.Fatal(err)
			}
			g := &gemini{audit: log, dir: t.TempDir(), operator: "agent:gemini", logger: slog.New(slog.DiscardHandler)}
			m, err := acpwire.Parse(acpwire.AgentToClient, []byte(line))
			if err != nil {
				t.Fatalf("parsing the update: %v", err)
			}
			g.Observe(m)
			if err := log.Close(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := string(data)
			if !strings.Contains(got, `"tool.call"`) {
				t.Fatalf("no tool.call record for the refused call:\n%s", got)
			}
			if digest := strings.Contains(got, `"$digest":true`); digest != tt.wantDigest {
				t.Errorf("digest record stored = %v, want %v:\n%.600s", digest, tt.wantDigest, got)
			}
			if whole := strings.Contains(got, long); whole == tt.wantDigest {
				t.Errorf("whole output stored = %v, want %v", whole, !tt.wantDigest)
			}
		})
	}
}
