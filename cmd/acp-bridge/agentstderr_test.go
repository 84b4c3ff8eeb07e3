package main

import (
	"bytes"
	"strconv"
	"testing"
)

// TestAgentStderrWhole: an agent that writes much to stderr and exits at
// once has every line of it on the bridge's stderr, the last included,
// though the bridge exits with its agent: the lines the bridge copies
// after the agent's exit are the ones that say why it ended. Five runs,
// since losing the tail depends on how far the copy had got.
func TestAgentStderrWhole(t *testing.T) {
	const n = 100000
	for range 5 {
		cmd := bridgeCommand(t, "--log-level", "error", "--", "sh", "-c", "seq 1 "+strconv.Itoa(n)+" >&2")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		// The bridge exits 1 when its agent ends on its own; only the
		// copy of the agent's stderr matters here.
		_ = cmd.Run()
		lines := bytes.Split(bytes.TrimSuffix(stderr.Bytes(), []byte("\n")), []byte("\n"))
		if len(lines) != n || string(lines[n-1]) != strconv.Itoa(n) {
			last := []byte(nil)
			if len(lines) > 0 {
				last = lines[len(lines)-1]
			}
			t.Fatalf("the bridge's stderr has %d lines ending %q; want the agent's %d ending %q", len(lines), last, n, strconv.Itoa(n))
		}
	}
}
