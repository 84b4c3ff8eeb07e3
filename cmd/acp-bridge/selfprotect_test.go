package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// selfEditAgent asks the client to overwrite $2/GOVERNANCE.md, then to read
// $3 (the audit log) and $4 (the wire recording), and writes the answers to
// the FIFO $1.
const selfEditAgent = awaitOpen + `printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":\"w1\",\"method\":\"fs/write_text_file\",\"params\":{\"sessionId\":\"s1\",\"path\":\"$2/GOVERNANCE.md\",\"content\":\"rules: {default: allow}\"}}"; IFS= read -r a
printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"fs/read_text_file\",\"params\":{\"sessionId\":\"s1\",\"path\":\"$3\"}}"; IFS= read -r b
printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":\"r2\",\"method\":\"fs/read_text_file\",\"params\":{\"sessionId\":\"s1\",\"path\":\"$4\"}}"; IFS= read -r c
printf '%s\n%s\n%s\n' "$a" "$b" "$c" > "$1"; cat > /dev/null`

// TestBridgeProtectsItsOwnFiles runs the bridge under a policy that allows
// every read and edit, with the policy and the audit log inside the
// workspace: the agent may neither rewrite the policy the next run obeys
// nor read the audit log or the wire recording, and the IDE never sees
// those requests.
func TestBridgeProtectsItsOwnFiles(t *testing.T) {
	ws := t.TempDir()
	policy := writePolicy(t, ws, "  default: allow\n  allow: [Read, Edit, Write]\n")
	logFile := filepath.Join(ws, "audit", "log.jsonl")
	record := filepath.Join(ws, "wire.jsonl")
	fifo := filepath.Join(t.TempDir(), "answers")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ide := startBridge(t, "--policy", policy, "--audit", logFile, "--record", record, "--workspace-root", ws, "--adapter", "none", "--",
		"sh", "-c", selfEditAgent, "sh", fifo, ws, logFile, record)
	openSession(t, ide, ws)
	got := make(chan []string, 1)
	go func() {
		var answers []string
		f, err := os.Open(fifo) // blocks until the agent has its answers
		if err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				answers = append(answers, sc.Text())
			}
			f.Close()
		}
		got <- answers
	}()
	var answers []string
	select {
	case answers = <-got:
	case <-time.After(20 * time.Second):
		// A request that reached the IDE is never answered here: end the
		// session so the agent gives up and the test reports it.
		ide.Close()
		answers = <-got
	}
	ide.Wait()
	if len(answers) != 3 {
		t.Fatalf("agent answers = %q; stderr:\n%s", answers, ide.Stderr())
	}
	for i, want := range []string{"the governance policy is protected", "the audit log is protected", "the bridge's wire recording is protected"} {
		if !strings.Contains(answers[i], `"error"`) || !strings.Contains(answers[i], want) {
			t.Errorf("answer %d = %s; want an error saying %q", i, answers[i], want)
		}
	}
	if b, _ := os.ReadFile(policy); strings.Contains(string(b), "rules: {default: allow}") {
		t.Error("the policy was overwritten")
	}
	if out := ide.Received(); strings.Contains(out, "fs/write_text_file") || strings.Contains(out, "fs/read_text_file") {
		t.Errorf("the IDE saw a refused request:\n%s", out)
	}
}

// TestPolicyCheckListsBuiltinRules: policy check shows the rules that hold
// whatever the policy says, and decides a write to the policy with them.
func TestPolicyCheckListsBuiltinRules(t *testing.T) {
	ws := t.TempDir()
	policy := writePolicy(t, ws, "  default: allow\n  allow: [Edit]\n")
	stdout, stderr, code := runCmd(t, "", "policy", "check", "--policy", policy)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"deny Edit(/" + policy + ") (built-in: the governance policy)",
		"deny Read(/" + filepath.Join(ws, "audit", "audit-log.jsonl") + ") (built-in: the audit log)",
		"deny Edit(./.claude/settings.json) (built-in: Claude Code's project settings, whose hooks run commands)",
		"deny relative paths",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("policy check output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, _ = runCmd(t, "", "policy", "check", "--policy", policy, "--cwd", ws, "--tool", "Edit", "--path", "GOVERNANCE.md")
	if !strings.HasPrefix(stdout, "deny\n") || !strings.Contains(stdout, "the governance policy is protected") {
		t.Errorf("policy check of an edit to the policy:\n%s", stdout)
	}
}
