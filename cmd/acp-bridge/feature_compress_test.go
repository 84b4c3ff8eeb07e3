package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBridgeCompressionOffloadsRead runs the bridge command with
// --compress on around a shell agent that reads a large file through the
// client: the agent receives a reference, the cache holds the original, and
// the event reaches both the compression log and the audit log.
func TestBridgeCompressionOffloadsRead(t *testing.T) {
	dir, ws := workspace(t)
	policy := writePolicy(t, dir, "  allow: [Read]\n")
	cache := filepath.Join(dir, "cache")
	clog := filepath.Join(dir, "compress.jsonl")
	auditLog := filepath.Join(dir, "audit.jsonl")
	ide, answer := startReadAgent(t, dir, ws, filepath.Join(ws, "big.log"), "--compress", "on", "--cache-dir", cache,
		"--compress-log", clog, "--offload-tokens", "500", "--policy", policy, "--audit", auditLog)
	ide.Until("fs/read_text_file")
	var big strings.Builder
	for i := 0; i < 2000; i++ {
		big.WriteString("2026-01-29 INFO import batch processed without errors\n")
	}
	resp, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "r1", "result": map[string]any{"content": big.String()}})
	ide.Send(string(resp))
	got := agentAnswer(t, ide, answer)
	var ee *exitError
	if err := ide.Wait(); err != nil && !errors.As(err, &ee) {
		t.Fatalf("bridge: %v", err)
	}
	var msg struct {
		Result struct{ Content string }
	}
	if err := json.Unmarshal([]byte(got), &msg); err != nil {
		t.Fatalf("agent got %s", got)
	}
	if !strings.HasPrefix(msg.Result.Content, "## Offloaded Content Reference") {
		t.Fatalf("agent got %.200s", msg.Result.Content)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "offloaded", "*_fs_read_text_file.md"))
	if len(files) != 1 {
		t.Fatalf("offloaded files: %v", files)
	}
	if b, _ := os.ReadFile(files[0]); string(b) != big.String() {
		t.Error("offloaded file differs from the content")
	}
	if b, _ := os.ReadFile(clog); !strings.Contains(string(b), `"event":"TIER_1"`) {
		t.Errorf("compression log: %s", b)
	}
	if b, _ := os.ReadFile(auditLog); !strings.Contains(string(b), `"action":"context.compress"`) {
		t.Errorf("audit log has no compression record:\n%s", b)
	}
}
