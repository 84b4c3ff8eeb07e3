package main

import (
	"bufio"
	"context"
	"io"
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
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), &env{stdin: inR, stdout: outW, stderr: &stderr},
			[]string{"--audit", log, "--adapter", "none", "--", "sh", "-c", scriptAgent, "sh", filepath.Join(dir, "initialize.json")})
		outW.Close()
	}()
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`+"\n"); err != nil {
		t.Fatalf("writing initialize: %v (stderr: %s)", err, stderr.String())
	}
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(line, `"agentInfo":{"name":"script-agent","version":"1.0.0"}`) {
		t.Fatalf("initialize response %q, %v (stderr: %s)", line, err, stderr.String())
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Fatalf("bridge: %v (stderr: %s)", err, stderr.String())
	}
	out, errOut, code := runAuditCmd(t, "show", "--all", log)
	if code != 0 {
		t.Fatalf("audit show: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `agent "script-agent 1.0.0" as it reported itself`) || !strings.Contains(out, `agent.info`) {
		t.Errorf("the run is not named by the agent's agentInfo:\n%s", out)
	}
	if out, _, code := runAuditCmd(t, "verify", "--genesis", log); code != 0 {
		t.Errorf("verify: %s", out)
	}
}
