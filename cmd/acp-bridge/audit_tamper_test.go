package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// moverAgent is an ACP agent in sh that, in the middle of a turn, tampers
// with the audit log's directory ($1) by running $4, then asks the IDE for
// a terminal in the workspace ($2), saving the answer it gets to $3.
const moverAgent = `read -r l; echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"mover","version":"1"}}}'
read -r l; echo '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}'
read -r l
eval "$4"
echo '{"jsonrpc":"2.0","id":"t1","method":"terminal/create","params":{"sessionId":"s1","command":"echo","args":["hi"],"cwd":"'"$2"'"}}'
read -r l; printf '%s\n' "$l" > "$3"
echo '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}'
cat > /dev/null`

// tamperRun is what runTamperedBridge saw.
type tamperRun struct {
	seen   string // what the IDE received
	answer string // what the agent's terminal/create got
	stderr string // the bridge's log
	logDir string
}

// runTamperedBridge runs the real bridge, with a policy that allows
// terminals and an audit log, in front of moverAgent running tamper.
func runTamperedBridge(t *testing.T, tamper string) tamperRun {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	logDir := filepath.Join(dir, "audit")
	for _, d := range []string{ws, logDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	policy := writePolicy(t, dir, "  default: allow\n")
	answer := filepath.Join(dir, "answer.json")
	ide := startBridge(t, "--policy", policy, "--audit", filepath.Join(logDir, "audit.jsonl"), "--workspace-root", ws, "--adapter", "none",
		"--", "sh", "-c", moverAgent, "sh", logDir, ws, answer, tamper)
	// readUntil returns the lines the IDE got up to the one holding want.
	readUntil := func(want string) string {
		t.Helper()
		var got strings.Builder
		for {
			line := ide.Next()
			got.WriteString(line + "\n")
			if strings.Contains(line, want) {
				return got.String()
			}
			if strings.Contains(line, `"terminal/create"`) {
				// The IDE refuses, so that the turn ends either way.
				var req struct {
					ID json.RawMessage `json:"id"`
				}
				json.Unmarshal([]byte(line), &req)
				ide.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32000,"message":"the IDE was asked"}}`)
			}
		}
	}
	ide.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"terminal":true}}}`)
	readUntil(`"id":0`)
	ide.Send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + ws + `","mcpServers":[]}}`)
	readUntil(`"id":1`)
	ide.Send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"go"}]}}`)
	seen := readUntil(`"id":2`)
	if err := ide.Wait(); err != nil {
		t.Fatalf("bridge: %v (stderr: %s)", err, ide.Stderr())
	}
	got, err := os.ReadFile(answer)
	if err != nil {
		t.Fatal(err)
	}
	return tamperRun{seen: seen, answer: string(got), stderr: ide.Stderr(), logDir: logDir}
}

// TestAuditTamperDeniesThroughBridge: once the agent has moved the audit
// log's directory away, no new file can be made, so the log stays down
// and the agent's terminal is refused (--audit-fail closed) without the
// IDE being asked.
func TestAuditTamperDeniesThroughBridge(t *testing.T) {
	r := runTamperedBridge(t, `mv "$1" "$1.gone"`)
	if strings.Contains(r.seen, "terminal/create") {
		t.Errorf("the IDE was asked for a terminal while the audit log was gone:\n%s", r.seen)
	}
	if !strings.Contains(r.answer, `"error"`) || !strings.Contains(r.answer, "audit log") {
		t.Errorf("the agent's terminal/create got %s, want an error saying the audit log is down", r.answer)
	}
	if !strings.Contains(r.stderr, "tampered") {
		t.Errorf("the bridge's log does not say the audit file was tampered with:\n%s", r.stderr)
	}
	// What was written before the move is whole where the agent put it.
	if out, _, code := runCmd(t, "", "audit", "verify", "--genesis", filepath.Join(r.logDir+".gone", "audit.jsonl")); code != 0 {
		t.Errorf("the moved log does not verify: %s", out)
	}
}

// TestAuditTamperRecordedThroughBridge: when the agent deletes the audit
// log, the bridge starts a new file that continues the chain with an
// audit.tamper event, and the decision that follows is recorded there.
func TestAuditTamperRecordedThroughBridge(t *testing.T) {
	r := runTamperedBridge(t, `rm "$1/audit.jsonl"`)
	if !strings.Contains(r.seen, "terminal/create") {
		t.Errorf("the allowed terminal did not reach the IDE once the log was back:\n%s\nagent got: %s", r.seen, r.answer)
	}
	log := filepath.Join(r.logDir, "audit.jsonl")
	out, _, code := runCmd(t, "", "audit", "show", "--all", "--wide", log)
	if code != 0 {
		t.Fatalf("audit show: %s", out)
	}
	tamper, terminal := strings.Index(out, "audit.tamper"), strings.Index(out, "terminal.create")
	if tamper < 0 || terminal < tamper || !strings.Contains(out, "found=unlinked") {
		t.Errorf("the new file lacks the audit.tamper event (found=unlinked) before the terminal's record:\n%s", out)
	}
	if out, _, code := runCmd(t, "", "audit", "verify", log); code != 0 || !strings.Contains(out, "not at GENESIS") {
		t.Errorf("the new file should verify as a chain continuing the deleted one: %s", out)
	}
}
