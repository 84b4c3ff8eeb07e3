package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/benchstream"
)

// The test binary doubles as acp-bridge itself and as fast fake agents:
//
//	ACP_BRIDGE_TEST_MAIN=1     run acp-bridge's main with the given arguments
//	ACP_BRIDGE_TEST_AGENT=...  run a fake agent (flood, echo, permflood, compose, soak), or a
//	                           reference relay in front of the agent its arguments
//	                           name, the flood agent without any
//	                           (relay-rw, relay-splice; see relayPeer)
func TestMain(m *testing.M) {
	if os.Getenv("ACP_BRIDGE_TEST_MAIN") == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := run(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
		stop()
		if err != nil {
			os.Exit(reportError(os.Stderr, err))
		}
		os.Exit(0)
	}
	switch os.Getenv("ACP_BRIDGE_TEST_AGENT") {
	case "flood":
		floodAgent()
		os.Exit(0)
	case "echo":
		echoAgent()
		os.Exit(0)
	case "stubborn":
		stubbornAgent()
		os.Exit(0)
	case "permflood":
		permFloodAgent()
		os.Exit(0)
	case "compose":
		composeAgent()
		os.Exit(0)
	case "soak":
		soakAgent()
		os.Exit(0)
	case "relay-rw", "relay-splice":
		relayPeer(os.Getenv("ACP_BRIDGE_TEST_AGENT"))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// agentSideLog opens the file $env names for the fake agent who to append
// to (created if need be), the record a test reads of what the agent got,
// or ends the agent with status 2 saying why.
func agentSideLog(who, env string) *os.File {
	f, err := os.OpenFile(os.Getenv(env), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, who+":", err)
		os.Exit(2)
	}
	return f
}

// runCmd runs acp-bridge with args and stdin in this process and returns
// what a user would see: stdout, stderr (with the error main would print)
// and the exit status.
func runCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb lockedBuffer // the command's goroutines may write while it runs
	err := run(context.Background(), &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	var ee *exitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.code
		if ee.err != nil {
			io.WriteString(&errb, ee.err.Error())
		}
	default:
		code = 1
		io.WriteString(&errb, err.Error())
	}
	return out.String(), errb.String(), code
}

// demoSession runs acp-bridge demo with args in a fresh workspace, failing the
// test if it fails, and returns the workspace and the demo's stdout.
func demoSession(t *testing.T, args ...string) (ws, stdout string) {
	t.Helper()
	// The demo starts its agent as this executable: make it act as acp-bridge.
	t.Setenv("ACP_BRIDGE_TEST_MAIN", "1")
	ws = filepath.Join(t.TempDir(), "ws")
	stdout, stderr, code := runCmd(t, "", append([]string{"demo", "--workspace", ws}, args...)...)
	if code != 0 {
		t.Fatalf("demo exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	return ws, stdout
}

// floodAgent answers the first request with FLOOD_N notifications followed
// by its response, then waits for stdin to close.
func floodAgent() {
	n, _ := strconv.Atoi(os.Getenv("FLOOD_N"))
	msgs := benchstream.Messages(n)
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriterSize(os.Stdout, 256<<10)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		id := requestID(line)
		if id == "" {
			continue
		}
		if bytes.Contains(line, []byte(`"method":"session/new"`)) {
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"bench"}}`+"\n", id)
			out.Flush()
			continue
		}
		for _, m := range msgs {
			out.Write(m)
			out.WriteByte('\n')
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"stopReason":"end_turn"}}`+"\n", id)
		out.Flush()
	}
}

// echoAgent answers every request at once with an empty result.
func echoAgent() {
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		if id := requestID(line); id != "" {
			io.WriteString(os.Stdout, `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`+"\n")
		}
	}
}

// requestID extracts a numeric id from a request line the benchmark sent.
func requestID(line []byte) string {
	const key = `"id":`
	for i := 0; i+len(key) < len(line); i++ {
		if string(line[i:i+len(key)]) == key {
			j := i + len(key)
			k := j
			for k < len(line) && line[k] >= '0' && line[k] <= '9' {
				k++
			}
			return string(line[j:k])
		}
	}
	return ""
}
