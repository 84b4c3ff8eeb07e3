package main

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestIDEToldWhenAgentFails runs the real binary with an agent that cannot
// start, and with one that exits without answering: the IDE's pending
// initialize gets a JSON-RPC error that says why, and the bridge exits
// non-zero.
func TestIDEToldWhenAgentFails(t *testing.T) {
	tests := []struct {
		name  string
		agent []string
		want  string
	}{
		{"cannot start", []string{"no-such-agent-acp-bridge-test"}, "could not start the agent"},
		{"exits before answering", []string{"sh", "-c", "read line; echo oops >&2; exit 3"}, "exit status 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ide := startBinary(t, append([]string{"--log-level", "error", "--"}, tt.agent...)...)
			ide.Timeout = 20 * time.Second
			ide.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
			if line := ide.Next(); !strings.Contains(line, `"id":0,"error":{"code":-32603`) || !strings.Contains(line, tt.want) {
				t.Fatalf("IDE got %q, want an error saying %q", line, tt.want)
			}
			var ee *exec.ExitError
			if err := ide.Wait(); !errors.As(err, &ee) || ee.ExitCode() == 0 {
				t.Fatalf("bridge exited with %v, want a non-zero status", err)
			}
		})
	}
}
