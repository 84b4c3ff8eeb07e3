package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// moverAgent is an ACP agent in sh that, in the middle of a turn, moves
// the audit log's directory ($1) away and then asks the IDE for a
// terminal in the workspace ($2), saving the answer it gets to $3.
const moverAgent = `read -r l; echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"mover","version":"1"}}}'
read -r l; echo '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}'
read -r l
mv "$1" "$1.gone"
echo '{"jsonrpc":"2.0","id":"t1","method":"terminal/create","params":{"sessionId":"s1","command":"echo","args":["hi"],"cwd":"'"$2"'"}}'
read -r l; printf '%s\n' "$l" > "$3"
echo '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}'
cat > /dev/null`

// TestAuditTamperDeniesThroughBridge runs the real bridge with a policy
// that allows terminals: once the agent has moved the audit log away, its
// terminal is refused (the log is down: --audit-fail closed), and never
// reaches the IDE.
func TestAuditTamperDeniesThroughBridge(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	logDir := filepath.Join(dir, "audit")
	for _, d := range []string{ws, logDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	policy := filepath.Join(dir, "GOVERNANCE.md")
	body := "---\nschema: governance.workspace/v1\nname: tamper\ntitle: Tamper\ndescription: D\nversion: 1.0.0\nrules:\n  default: allow\n---\n"
	if err := os.WriteFile(policy, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	answer := filepath.Join(dir, "answer.json")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), &env{stdin: inR, stdout: outW, stderr: &stderr},
			[]string{"--policy", policy, "--audit", filepath.Join(logDir, "audit.jsonl"), "--workspace-root", ws, "--adapter", "none",
				"--", "sh", "-c", moverAgent, "sh", logDir, ws, answer})
		outW.Close()
	}()
	out := bufio.NewReader(outR)
	send := func(line string) {
		t.Helper()
		wrote := make(chan error, 1)
		go func() {
			_, err := io.WriteString(inW, line+"\n")
			wrote <- err
		}()
		select {
		case err := <-wrote:
			if err != nil {
				t.Fatalf("writing %s: %v (stderr: %s)", line, err, stderr.String())
			}
		case err := <-done:
			t.Fatalf("the bridge stopped: %v (stderr: %s)", err, stderr.String())
		}
	}
	// readUntil returns the lines the IDE got up to the one holding want.
	readUntil := func(want string) string {
		t.Helper()
		var got strings.Builder
		for {
			line, err := out.ReadString('\n')
			got.WriteString(line)
			if err != nil {
				t.Fatalf("reading until %s: %v\ngot:\n%s\nstderr: %s", want, err, got.String(), stderr.String())
			}
			if strings.Contains(line, want) {
				return got.String()
			}
			if strings.Contains(line, `"terminal/create"`) {
				// Answer, so that a bridge that forwarded it fails the
				// test instead of hanging it.
				var req struct {
					ID json.RawMessage `json:"id"`
				}
				json.Unmarshal([]byte(line), &req)
				send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32000,"message":"the IDE was asked"}}`)
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"terminal":true}}}`)
	readUntil(`"id":0`)
	send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + ws + `","mcpServers":[]}}`)
	readUntil(`"id":1`)
	send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"go"}]}}`)
	seen := readUntil(`"id":2`)
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Fatalf("bridge: %v (stderr: %s)", err, stderr.String())
	}
	if strings.Contains(seen, "terminal/create") {
		t.Errorf("the IDE was asked for a terminal while the audit log was gone:\n%s", seen)
	}
	got, err := os.ReadFile(answer)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the agent's terminal/create got %s", got)
	if !strings.Contains(string(got), `"error"`) || !strings.Contains(string(got), "audit") {
		t.Errorf("the agent's terminal/create got %s, want an error saying the audit log is down", got)
	}
	if !strings.Contains(stderr.String(), "tampered") {
		t.Errorf("the bridge's log does not say the audit file was tampered with:\n%s", stderr.String())
	}
	// What was written before the move is whole where the agent put it.
	if out, _, code := runAuditCmd(t, "verify", "--genesis", filepath.Join(logDir+".gone", "audit.jsonl")); code != 0 {
		t.Errorf("the moved log does not verify: %s", out)
	}
}
