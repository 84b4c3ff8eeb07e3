package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// startBridge runs the bridge command in-process with args, over real
// pipes, the test playing the IDE.
func startBridge(t *testing.T, args ...string) *acpwiretest.IDE {
	t.Helper()
	return acpwiretest.RunIDE(t, func(stdin io.Reader, stdout, stderr io.Writer) error {
		return run(context.Background(), &env{stdin: stdin, stdout: stdout, stderr: stderr}, args)
	})
}

// startBinary runs this test binary as acp-bridge with args, the test
// playing the IDE.
func startBinary(t *testing.T, args ...string) *acpwiretest.IDE {
	t.Helper()
	return acpwiretest.StartIDE(t, bridgeCommand(t, args...))
}

// bridgeCommand is this test binary run as acp-bridge with args (TestMain
// turns it into the command).
func bridgeCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "ACP_BRIDGE_TEST_MAIN=1")
	return cmd
}

// runProcess runs cmd to its end with stdin on its standard input and
// returns what it printed and its exit status.
func runProcess(t *testing.T, cmd *exec.Cmd, stdin string) (stdout, stderr string, code int) {
	t.Helper()
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// awaitOpen is the start of a shell agent that acts in session s1: it waits
// for the IDE's session/load of s1 (sent by openSession) before it sends
// anything, since governance refuses agent requests for a session the IDE
// never opened.
const awaitOpen = `IFS= read -r opened; `

// readAgent asks the client for the file $2 once the IDE has opened s1,
// saves the answer to $1 and waits for stdin to close.
const readAgent = awaitOpen + `printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"fs/read_text_file\",\"params\":{\"sessionId\":\"s1\",\"path\":\"$2\"}}"; IFS= read -r line; printf '%s\n' "$line" > "$1"; cat > /dev/null`

// startReadAgent runs the bridge with args, adapters off and ws as the
// workspace root, around readAgent asking for file once the IDE has opened
// s1 (which it does); it returns the IDE and the file under dir the agent
// saves its answer to.
func startReadAgent(t *testing.T, dir, ws, file string, args ...string) (*acpwiretest.IDE, string) {
	t.Helper()
	answer := filepath.Join(dir, "answer.json")
	args = append(args, "--workspace-root", ws, "--adapter", "none", "--", "sh", "-c", readAgent, "sh", answer, file)
	ide := startBridge(t, args...)
	openSession(t, ide, ws)
	return ide, answer
}

// checkAuditLog checks that the audit log at path verifies and holds each
// of wants.
func checkAuditLog(t *testing.T, path string, wants ...string) {
	t.Helper()
	log := audittest.Verified(t, path)
	for _, want := range wants {
		if !strings.Contains(string(log), want) {
			t.Errorf("audit log lacks %s:\n%s", want, log)
		}
	}
}

// openSession sends the IDE's session/load of s1 in cwd, so that the
// agent's requests in s1 are for a session the IDE opened.
func openSession(t *testing.T, ide *acpwiretest.IDE, cwd string) {
	t.Helper()
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "open-s1", "method": "session/load",
		"params": map[string]any{"sessionId": "s1", "cwd": cwd, "mcpServers": []any{}}})
	if err != nil {
		t.Fatal(err)
	}
	ide.Send(string(line))
}

// agentAnswer waits for a shell agent to save, to path, the answer it got,
// and returns it.
func agentAnswer(t *testing.T, ide *acpwiretest.IDE, path string) string {
	t.Helper()
	var b []byte
	ide.WaitFor("the agent's answer in "+path, func() bool {
		var err error
		b, err = os.ReadFile(path)
		return err == nil && len(b) > 0
	})
	return string(b)
}

// workspace makes the directory ws under a new temporary directory, and
// returns both.
func workspace(t *testing.T) (dir, ws string) {
	t.Helper()
	dir = t.TempDir()
	ws = filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, ws
}

// writePolicy writes a GOVERNANCE.md with the given rules block into dir.
func writePolicy(t *testing.T, dir, rules string) string {
	t.Helper()
	p := filepath.Join(dir, "GOVERNANCE.md")
	body := "---\nschema: governance.workspace/v1\nname: test-policy\ntitle: T\ndescription: D\nversion: 1.0.0\nrules:\n" + rules + "---\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// lockedBuffer is a buffer safe for the bridge's concurrent writers.
type lockedBuffer = acpwiretest.Buffer
