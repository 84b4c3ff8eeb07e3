package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// TestBridgeGovernanceDeniesRead runs the bridge command with --policy and
// --audit around a shell agent that reads .env through the client: the
// agent gets an error, the IDE never sees the request, and the audit log
// verifies and holds the decision between bridge.start and bridge.stop.
func TestBridgeGovernanceDeniesRead(t *testing.T) {
	dir, ws := workspace(t)
	policy := writePolicy(t, dir, "  deny: [Read(**/.env)]\n  allow: [Read]\n")
	logFile := filepath.Join(dir, "audit", "log.jsonl")
	ide, answer := startReadAgent(t, dir, ws, filepath.Join(ws, ".env"), "--policy", policy, "--audit", logFile)
	got := agentAnswer(t, ide, answer)
	if err := ide.Wait(); err != nil {
		t.Logf("bridge ended with %v", err)
	}
	if !strings.Contains(got, `"error"`) || !strings.Contains(got, "Read(**/.env)") {
		t.Fatalf("agent got %s, want an error naming the rule", got)
	}
	if strings.Contains(ide.Received(), "fs/read_text_file") {
		t.Fatalf("the IDE saw the denied request:\n%s", ide.Received())
	}
	checkAuditLog(t, logFile, `"action":"bridge.start"`, `"action":"fs.read"`, `"decision":"deny"`, `"action":"bridge.stop"`)
}

func TestPolicyCheckCommand(t *testing.T) {
	dir := t.TempDir()
	policy := writePolicy(t, dir, "  deny: [Bash(git push:*)]\n  allow: [Bash(ls:*)]\n")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--command", "ls && FOO=1 git push"}, "deny\nrule:   deny Bash(git push:*) (" + policy + ":8)\n"},
		{[]string{"--tool", "Bash", "--command", "ls -la"}, "allow\nrule:   allow Bash(ls:*) (" + policy + ":9)\n"},
		{[]string{"--path", "/etc/passwd"}, "deny\nrule:   deny paths outside the workspace roots (built-in)\n"},
		{nil, policy + ": valid; default require-approval (built-in); 2 rules:\n"},
	}
	for _, tt := range tests {
		args := append([]string{"policy", "check", "--policy", policy, "--cwd", dir}, tt.args...)
		stdout, stderr, code := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		if !strings.HasPrefix(stdout, tt.want) {
			t.Errorf("%v:\n got %q\nwant prefix %q", tt.args, stdout, tt.want)
		}
	}
}

// TestAuditRotationFlag: with --audit-max-bytes the log of a whole demo
// session is spread over several files whose hash chain verifies as one.
func TestAuditRotationFlag(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "audit.jsonl")
	policy := writePolicy(t, dir, "  allow: [Read, Edit, Write]\n")
	demoSession(t, "--policy", policy, "--audit", logFile, "--audit-max-bytes", "3000", "--adapter", "none")
	files, _ := filepath.Glob(logFile + "*")
	if len(files) < 3 {
		t.Fatalf("want the log rotated into several files, got %v", files)
	}
	n, err := audit.Verify(files...)
	if err != nil {
		t.Fatalf("rotated chain does not verify: %v", err)
	}
	t.Logf("%d files, %v", len(files), n)
}
