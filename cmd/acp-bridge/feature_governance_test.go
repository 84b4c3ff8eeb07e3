package main

import (
	"context"
	"errors"
	"os"
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

// TestBridgeRefusesBrokenPolicy: a policy with an error stops the bridge
// before the agent starts, with file:line messages.
func TestBridgeRefusesBrokenPolicy(t *testing.T) {
	dir := t.TempDir()
	policy := writePolicy(t, dir, "  deny: [Bash(]\n")
	marker := filepath.Join(dir, "started")
	var stdout, stderr lockedBuffer
	err := run(context.Background(), &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr},
		[]string{"--policy", policy, "--adapter", "none", "--", "sh", "-c", "touch " + marker})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 {
		t.Fatalf("run = %v, want exit status 2", err)
	}
	if want := policy + ":8:10: rule \"Bash(\": missing closing parenthesis"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the agent was started under a broken policy")
	}
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
		var stdout, stderr lockedBuffer
		args := append([]string{"policy", "check", "--policy", policy, "--cwd", dir}, tt.args...)
		if err := run(context.Background(), &env{stdout: &stdout, stderr: &stderr}, args); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr.String())
		}
		if !strings.HasPrefix(stdout.String(), tt.want) {
			t.Errorf("%v:\n got %q\nwant prefix %q", tt.args, stdout.String(), tt.want)
		}
	}
}

// TestAuditRotationFlag: with --audit-max-bytes the log of a whole demo
// session is spread over several files whose hash chain verifies as one.
func TestAuditRotationFlag(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "audit.jsonl")
	policy := writePolicy(t, dir, "  allow: [Read, Edit, Write]\n")
	// The demo starts its agent as this executable: make it act as acp-bridge.
	t.Setenv("ACP_BRIDGE_TEST_MAIN", "1")
	var out, errOut lockedBuffer
	err := run(context.Background(), &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut},
		[]string{"demo", "--policy", policy, "--audit", logFile, "--audit-max-bytes", "3000", "--adapter", "none"})
	if err != nil {
		t.Fatalf("demo: %v\n%s\n%s", err, out.String(), errOut.String())
	}
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
