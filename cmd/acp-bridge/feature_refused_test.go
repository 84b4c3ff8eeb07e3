package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// sayAgent sends the line $2 to the client as soon as it starts, saves the
// answer to $1 and waits for stdin to close.
const sayAgent = `printf '%s\n' "$2"; IFS= read -r line; printf '%s\n' "$line" > "$1"; cat > /dev/null`

// TestBridgeAuditsWireRefusals runs the bridge command with a policy and
// an audit log around an agent whose file read names its path twice: the
// wire layer refuses it (-32600 to the agent, nothing to the IDE) and the
// refusal is in the audit log, which verifies.
func TestBridgeAuditsWireRefusals(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	policy := writePolicy(t, dir, "  deny: [Read(**/.env)]\n  allow: [Read]\n")
	answer := filepath.Join(dir, "answer.json")
	logFile := filepath.Join(dir, "audit", "log.jsonl")
	line := `{"jsonrpc":"2.0","id":"r1","method":"fs/read_text_file","params":{"sessionId":"s1","path":"` + ws + `/.env","path":"` + ws + `/a.txt"}}`
	stdinR, stdinW := io.Pipe()
	var stdout, stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), &env{stdin: stdinR, stdout: &stdout, stderr: &stderr},
			[]string{"--policy", policy, "--audit", logFile, "--workspace-root", ws, "--adapter", "none", "--",
				"sh", "-c", sayAgent, "sh", answer, line})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(answer); err == nil && len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			stdinW.Close()
			t.Fatalf("the agent got no answer; stderr:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	stdinW.Close()
	if err := <-done; err != nil {
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 0 {
			t.Logf("bridge ended with %v", err)
		}
	}
	got, _ := os.ReadFile(answer)
	if !strings.Contains(string(got), `-32600`) {
		t.Fatalf("agent got %s, want -32600", got)
	}
	if strings.Contains(stdout.String(), "fs/read_text_file") {
		t.Fatalf("the IDE saw the refused request:\n%s", stdout.String())
	}
	if _, err := audit.Verify(logFile); err != nil {
		t.Fatalf("audit log does not verify: %v", err)
	}
	log, _ := os.ReadFile(logFile)
	for _, want := range []string{`"action":"message.refused"`, `"stage":"wire"`, `"decision":"deny"`} {
		if !strings.Contains(string(log), want) {
			t.Errorf("audit log lacks %s:\n%s", want, log)
		}
	}
}
