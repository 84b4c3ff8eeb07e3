package main

import (
	"bufio"
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
// only they carry).
func TestSIGTERMLeavesNoProcess(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var nonce [8]byte
	rand.Read(nonce[:])
	mark := "SIGTERM_TEST_MARK=" + hex.EncodeToString(nonce[:])
	cmd := exec.Command(exe, "--log-level", "error", "--", "env", "-u", "ACP_BRIDGE_TEST_MAIN", mark, "ACP_BRIDGE_TEST_AGENT=stubborn", exe)
	cmd.Env = append(os.Environ(), "ACP_BRIDGE_TEST_MAIN=1")
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	out, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(line, "_test/ready") {
		t.Fatalf("agent did not start: %q %v\n%s", line, err, stderr.String())
	}
	if n := len(processesWithEnv([]byte(mark))); n != 2 {
		t.Fatalf("want the agent and its child running, found %d marked processes", n)
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("bridge exited with %v after SIGTERM:\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("bridge did not exit after SIGTERM")
	}
	// stdin close (2 s grace), SIGTERM (ignored, 5 s), SIGKILL.
	t.Logf("bridge exited %v after SIGTERM", time.Since(start).Round(time.Millisecond))
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := processesWithEnv([]byte(mark))
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left after the bridge exited: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
