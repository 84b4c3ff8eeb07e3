package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// stubbornAgent ignores SIGTERM and its stdin closing, and starts a child of
// its own: the worst agent to shut down.
func stubbornAgent() {
	signal.Ignore(syscall.SIGTERM)
	child := exec.Command("sleep", "300")
	if err := child.Start(); err != nil {
		os.Exit(1)
	}
	fmt.Printf(`{"jsonrpc":"2.0","method":"_test/ready","params":{"child":%d}}`+"\n", child.Process.Pid)
	time.Sleep(time.Hour)
}

// TestSIGTERMLeavesNoProcess sends SIGTERM to the real acp-bridge process
// running a stubborn agent that has a child: the bridge exits, and neither
// the agent nor its child is left (checked in /proc by an environment mark
// only they carry). Its seconds are the bridge's stop grace periods, spent
// waiting: it runs in parallel with the package's other parallel tests.
func TestSIGTERMLeavesNoProcess(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var nonce [8]byte
	rand.Read(nonce[:])
	mark := "SIGTERM_TEST_MARK=" + hex.EncodeToString(nonce[:])
	cmd := bridgeCommand(t, "--log-level", "error", "--", "env", "-u", "ACP_BRIDGE_TEST_MAIN", mark, "ACP_BRIDGE_TEST_AGENT=stubborn", exe)
	ide := acpwiretest.StartIDE(t, cmd)
	ide.Timeout = 20 * time.Second
	if line := ide.Next(); !strings.Contains(line, "_test/ready") {
		t.Fatalf("agent did not start: %q", line)
	}
	// Both run once the agent says so, but /proc is read one directory at
	// a time while other tests' processes come and go: a read that missed
	// one is read again, for a while.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		n := len(acpwire.ProcessesWithEnv(mark))
		if n == 2 {
			break
		}
		if n > 2 || time.Now().After(deadline) {
			t.Fatalf("want the agent and its child running, found %d marked processes", n)
		}
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := ide.WaitExit(); err != nil {
		t.Fatalf("bridge exited with %v after SIGTERM:\n%s", err, ide.Stderr())
	}
	// stdin close (2 s grace), SIGTERM (ignored, 5 s), SIGKILL.
	t.Logf("bridge exited %v after SIGTERM", time.Since(start).Round(time.Millisecond))
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := acpwire.ProcessesWithEnv(mark)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left after the bridge exited: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAgentKeepsSignalDefaults: the agent (and every tool it runs) starts
// with the signals ignored that the bridge was started with, and no more.
// The bridge must not ignore SIGPIPE itself to survive a closed stdout:
// an ignored signal is inherited, and `yes | head -1` in the agent's shell
// would then end in "Broken pipe" instead of quietly.
func TestAgentKeepsSignalDefaults(t *testing.T) {
	report := []string{"sh", "-c", "grep SigIgn /proc/self/status | tr '\\t' ' ' >&2"}
	ignored := func(cmd *exec.Cmd) string {
		t.Helper()
		var stderr strings.Builder
		cmd.Stderr = &stderr
		// The bridge exits 1 when its agent ends on its own, as this one
		// does; only what the agent reported matters.
		_ = cmd.Run()
		for _, line := range strings.Split(stderr.String(), "\n") {
			line = strings.TrimPrefix(line, agentStderrPrefix) // the bridge marks the agent's lines
			if mask, ok := strings.CutPrefix(line, "SigIgn:"); ok {
				return strings.TrimSpace(mask)
			}
		}
		t.Fatalf("%v: no SigIgn line in %q", cmd.Args, stderr.String())
		return ""
	}
	direct := exec.Command(report[0], report[1:]...)
	bridged := bridgeCommand(t, append([]string{"--log-level", "error", "--"}, report...)...)
	want, got := ignored(direct), ignored(bridged)
	if got != want {
		t.Fatalf("agent's ignored signals %s, want %s (as without the bridge)", got, want)
	}
}

// TestClosedStdoutIsAnError: the IDE closes its end of the bridge's stdout
// (it quit without a word). The bridge's next write to it fails with EPIPE
// instead of killing the bridge with SIGPIPE, and the bridge still shuts
// the agent down and exits normally when its stdin ends.
func TestClosedStdoutIsAnError(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := bridgeCommand(t, "--log-level", "error", "--", "env", "-u", "ACP_BRIDGE_TEST_MAIN", "ACP_BRIDGE_TEST_AGENT=echo", exe)
	ide := acpwiretest.StartIDE(t, cmd)
	ide.Timeout = 20 * time.Second
	ide.Hangup() // the IDE is gone: nobody reads what the bridge writes
	// The echo agent answers; the bridge's write of the answer fails.
	ide.Send(`{"jsonrpc":"2.0","id":1,"method":"_x/ping"}`)
	ide.WaitFor("the bridge's failed write to the IDE", func() bool { return strings.Contains(ide.Stderr(), "broken pipe") })
	err = ide.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("bridge killed by %v; stderr:\n%s", ws.Signal(), ide.Stderr())
	}
	if err != nil {
		t.Fatalf("bridge exited with %v; stderr:\n%s", err, ide.Stderr())
	}
}
