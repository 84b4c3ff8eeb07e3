package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// secretAgent is an ACP agent in sh that names its session with the
// token $1 and answers the prompts: id 2 with an error quoting the token,
// id 3 with a stop reason holding it.
const secretAgent = `while IFS= read -r l; do
  case "$l" in
  *'"method":"initialize"'*) echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"probe","version":"1"}}}';;
  *'"method":"session/new"'*) echo '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s-'"$1"'"}}';;
  *'"id":2,'*) echo '{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"push failed: remote: invalid token '"$1"'","data":{"token":"'"$1"'"}}}';;
  *'"id":3,'*) echo '{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn '"$1"'"}}';;
  esac
done`

// TestOTLPTracesRedactSecrets: a token the agent echoes in its session id,
// a prompt's error or its stop reason is redacted in the audit log, and
// must be in the spans the collector receives no more than there.
func TestOTLPTracesRedactSecrets(t *testing.T) {
	const token = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
	col := otelcoltest.Start(t)
	t.Setenv("TRACEPARENT", "")
	dir, ws := workspace(t)
	policy := writePolicy(t, dir, "  allow: [Read]\n")
	logFile := filepath.Join(dir, "audit", "audit.jsonl")
	ide := startBridge(t, "--policy", policy, "--audit", logFile, "--workspace-root", ws, "--adapter", "none",
		"--otlp-endpoint", col.Endpoint(), "--otlp-traces", "--", "sh", "-c", secretAgent, "sh", token)
	ide.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	ide.Response("0")
	ide.Send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + ws + `","mcpServers":[]}}`)
	ide.Response("1")
	for i := 2; i <= 3; i++ {
		ide.Send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"session/prompt","params":{"sessionId":"s-` + token + `","prompt":[]}}`)
		ide.Response(strconv.Itoa(i))
	}
	if err := ide.Wait(); err != nil {
		t.Fatalf("bridge: %v (stderr: %s)", err, ide.Stderr())
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), token) {
		t.Fatal("the audit log holds the token")
	}
	col.WaitSpans(func(ss []otelcoltest.Span) bool {
		for _, s := range ss {
			if strings.HasPrefix(s.Name, "acp-bridge ") {
				return true
			}
		}
		return false
	})
	for _, f := range []string{col.TracesFile(), col.LogsFile()} {
		data, _ := os.ReadFile(f)
		if n := strings.Count(string(data), token); n > 0 {
			t.Errorf("%s holds the token %d times", filepath.Base(f), n)
		}
	}
}
