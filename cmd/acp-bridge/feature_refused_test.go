package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// sayAgent sends the line $2 to the client as soon as it starts, saves the
// answer to $1 and waits for stdin to close.
const sayAgent = `printf '%s\n' "$2"; IFS= read -r line; printf '%s\n' "$line" > "$1"; cat > /dev/null`

// TestBridgeAuditsWireRefusals runs the bridge command with a policy and
// an audit log around an agent whose file read names its path twice: the
// wire layer refuses it (-32600 to the agent, nothing to the IDE) and the
// refusal is in the audit log, which verifies.
func TestBridgeAuditsWireRefusals(t *testing.T) {
	dir, ws := workspace(t)
	policy := writePolicy(t, dir, "  deny: [Read(**/.env)]\n  allow: [Read]\n")
	answer := filepath.Join(dir, "answer.json")
	logFile := filepath.Join(dir, "audit", "log.jsonl")
	line := `{"jsonrpc":"2.0","id":"r1","method":"fs/read_text_file","params":{"sessionId":"s1","path":"` + ws + `/.env","path":"` + ws + `/a.txt"}}`
	ide := startBridge(t, "--policy", policy, "--audit", logFile, "--workspace-root", ws, "--adapter", "none", "--",
		"sh", "-c", sayAgent, "sh", answer, line)
	got := agentAnswer(t, ide, answer)
	if err := ide.Wait(); err != nil {
		t.Logf("bridge ended with %v", err)
	}
	if !strings.Contains(got, `-32600`) {
		t.Fatalf("agent got %s, want -32600", got)
	}
	if strings.Contains(ide.Received(), "fs/read_text_file") {
		t.Fatalf("the IDE saw the refused request:\n%s", ide.Received())
	}
	checkAuditLog(t, logFile, `"action":"message.refused"`, `"stage":"wire"`, `"decision":"deny"`)
}
