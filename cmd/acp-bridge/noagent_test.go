package main

import (
	"bufio"
	"errors"
	"io"
	"os"
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
			cmd := exec.Command(os.Args[0], append([]string{"--log-level", "error", "--"}, tt.agent...)...)
			cmd.Env = append(os.Environ(), "ACP_BRIDGE_TEST_MAIN=1")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = io.Discard
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`+"\n"); err != nil {
				t.Fatal(err)
			}
			got := make(chan string, 1)
			go func() {
				line, _ := bufio.NewReader(stdout).ReadString('\n')
				got <- line
			}()
			select {
			case line := <-got:
				if !strings.Contains(line, `"id":0,"error":{"code":-32603`) || !strings.Contains(line, tt.want) {
					t.Fatalf("IDE got %q, want an error saying %q", line, tt.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the IDE got no answer to initialize")
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() == 0 {
					t.Fatalf("bridge exited with %v, want a non-zero status", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the bridge did not exit")
			}
		})
	}
}
