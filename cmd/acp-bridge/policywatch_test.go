package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPolicyChangeRecorded runs the bridge under a policy in the
// workspace, opens a session and changes the policy file behind the
// bridge's back, as a command the person approved might: the person is
// told in the session, and the audit log records policy.changed.
func TestPolicyChangeRecorded(t *testing.T) {
	ws := t.TempDir()
	policy := writePolicy(t, ws, "  default: ask\n")
	logFile := filepath.Join(t.TempDir(), "audit.jsonl")
	ide := startBinary(t, "--policy", policy, "--audit", logFile, "--workspace-root", ws, "--adapter", "none", "--",
		"sh", "-c", awaitOpen+`printf '%s\n' '{"jsonrpc":"2.0","id":"open-s1","result":{}}'; cat > /dev/null`)
	ide.Timeout = 20 * time.Second
	openSession(t, ide, ws)
	if line := ide.Next(); !strings.Contains(line, `"open-s1"`) {
		t.Fatalf("IDE got %q, want the session/load answer", line)
	}
	if err := os.WriteFile(policy, []byte("---\nrules: {default: allow}\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if line := ide.Next(); !strings.Contains(line, "changed on disk") || !strings.Contains(line, `"s1"`) {
		t.Fatalf("IDE got %q, want the change told in s1", line)
	}
	ide.Close()
	if err := ide.Wait(); err != nil {
		t.Fatalf("bridge: %v", err)
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"action":"policy.changed"`) {
		t.Errorf("the audit log holds no policy.changed record:\n%s", log)
	}
}
