package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentInfoRecorded runs the bridge with an audit log in front of a
// real agent process whose initialize response names it, and checks that
// the log records the name and that the views name the agent by it rather
// than by its command ("agent:sh").
func TestAgentInfoRecorded(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	ide := startBridge(t, "--audit", log, "--adapter", "none", "--", "sh", "-c", scriptAgent, "sh", filepath.Join(dir, "initialize.json"))
	ide.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	if line := ide.Next(); !strings.Contains(line, `"agentInfo":{"name":"script-agent","version":"1.0.0"}`) {
		t.Fatalf("initialize response %q", line)
	}
	if err := ide.Wait(); err != nil {
		t.Fatalf("bridge: %v (stderr: %s)", err, ide.Stderr())
	}
	out, errOut, code := runCmd(t, "", "audit", "show", "--all", log)
	if code != 0 {
		t.Fatalf("audit show: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `agent "script-agent 1.0.0" as it reported itself`) || !strings.Contains(out, `agent.info`) {
		t.Errorf("the run is not named by the agent's agentInfo:\n%s", out)
	}
	if out, _, code := runCmd(t, "", "audit", "verify", "--genesis", log); code != 0 {
		t.Errorf("verify: %s", out)
	}
}
