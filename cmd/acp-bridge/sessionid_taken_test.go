package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sameIDAgent is an ACP agent in sh that answers every session/new with
// session s1, and the prompt with id 3 with the lines of the file $1.
const sameIDAgent = `while IFS= read -r l; do
  case "$l" in
  *'"method":"initialize"'*) echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"probe","version":"1"}}}';;
  *'"method":"session/new"'*) id=${l#*'"id":'}; echo '{"jsonrpc":"2.0","id":'"${id%%,*}"',"result":{"sessionId":"s1"}}';;
  *'"id":3,'*) cat "$1"; echo '{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}';;
  esac
done`

// TestSessionIDTakenEndToEnd: the person opens a thread in project a, then
// one in project b, and the agent answers both with session s1. The second
// answer reaches the IDE as an error and is recorded as refused: s1 keeps
// project a as its workspace, so a write into project b in it is denied,
// not asked about as a write in its own workspace would be, and the audit
// log holds one session s1, started once.
func TestSessionIDTakenEndToEnd(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	policy := writePolicy(t, dir, "  ask: [Write]\n")
	lines := filepath.Join(dir, "lines.jsonl")
	write := `{"jsonrpc":"2.0","id":"w1","method":"fs/write_text_file","params":{"sessionId":"s1","path":"` + filepath.Join(b, "x.txt") + `","content":"x"}}`
	if err := os.WriteFile(lines, []byte(write+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "audit", "audit.jsonl")
	ide := startBridge(t, "--policy", policy, "--audit", logFile, "--adapter", "none", "--", "sh", "-c", sameIDAgent, "sh", lines)
	ide.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true}}}}`)
	ide.Response("0")
	ide.Send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + a + `","mcpServers":[]}}`)
	if r := ide.Response("1"); !strings.Contains(r, `"sessionId":"s1"`) {
		t.Fatalf("first session/new: %s", r)
	}
	ide.Send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"` + b + `","mcpServers":[]}}`)
	if r := ide.Response("2"); !strings.Contains(r, `"error"`) || !strings.Contains(r, "already uses") {
		t.Errorf("second session/new, answered with the first's id, reached the IDE as %s; want an error", r)
	}
	ide.Send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
	if l := ide.WaitLine("the prompt's answer or a permission request", func(l string) bool {
		return strings.Contains(l, `"id":3,`) || strings.Contains(l, "session/request_permission")
	}); !strings.Contains(l, `"id":3,`) {
		t.Fatalf("the write into project b in session s1 was asked about, as a write in its own workspace: %s", l)
	}
	if err := ide.Wait(); err != nil {
		t.Fatalf("bridge: %v (stderr: %s)", err, ide.Stderr())
	}
	if got := ide.Received(); strings.Contains(got, `"method":"fs/write_text_file"`) {
		t.Errorf("the write into project b in session s1 reached the IDE:\n%s", got)
	}
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"action":"session.start"`); n != 1 {
		t.Errorf("%d session.start records, want 1", n)
	}
	if !strings.Contains(string(data), `"action":"session.refused"`) {
		t.Error("no session.refused record")
	}
}
