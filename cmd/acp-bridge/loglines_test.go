package main

import (
	"bufio"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/terminaltest"
)

// TestLogLinesPrintable runs the bridge with an agent whose initialize
// response offers a login method the IDE would run in a terminal, its id
// padded with characters that print as nothing (a variation selector, a
// Hangul filler, the braille blank) and carrying an override and a C1
// CSI. The bridge removes the method and says so on stderr and in its
// --log-file, quoting the id: neither may carry those characters, and the
// id is still recognisable.
func TestLogLinesPrintable(t *testing.T) {
	dir := t.TempDir()
	policy := writePolicy(t, dir, "  default: ask\n")
	logFile := filepath.Join(dir, "bridge.log")
	const response = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"authMethods":[{"id":"login\ufe0f\u3164\u2800\u202e\u009b2J level=ERROR","name":"Log in",` +
		`"_meta":{"terminal-auth":{"label":"Log in","command":"sh","args":["-c","true"]}}}]}}`
	agent := "read line; printf '%s\\n' '" + response + "'; sleep 0.2"
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}` + "\n"
	for _, args := range [][]string{nil, {"--log-file", logFile}} {
		cmd := bridgeCommand(t, append(append([]string{"--policy", policy, "--audit", filepath.Join(dir, "audit.jsonl")}, args...), "--", "sh", "-c", agent)...)
		stdout, stderr, _ := runProcess(t, cmd, initialize)
		if !strings.Contains(stdout, `"authMethods":[]`) {
			t.Fatalf("the login method was not removed:\n%s\n%s", stdout, stderr)
		}
		out := stderr
		if args != nil {
			b, err := os.ReadFile(logFile)
			if err != nil {
				t.Fatal(err)
			}
			out = string(b)
		}
		// Quoted by slog for its space, each backslash doubled.
		if !strings.Contains(out, `method="login\\u{FE0F}\\u{3164}\\u{2800}\\u{202E}\\u{009B}2J level=ERROR"`) {
			t.Errorf("the log does not name the method printably:\n%s", out)
		}
		terminaltest.CheckPrintable(t, "the bridge's log", out, "level=ERROR")
		if strings.ContainsRune(out, '\u2800') {
			t.Errorf("the log carries the braille blank:\n%s", out)
		}
	}
}

// TestServeLogLinesPrintable: any web page the person visits can make
// the browser request a path of the loopback server without the token;
// the server logs the path on the terminal it runs in, and the path may
// carry nothing that terminal would act on or print as nothing.
func TestServeLogLinesPrintable(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	writeAuditLog(t, log)
	cmd := bridgeCommand(t, "audit", "serve", "--listen", "127.0.0.1:0", log)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(strings.TrimSpace(line[strings.Index(line, "http://"):]))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + u.Host + "/x%EF%B8%8F%E3%85%A4%E2%A0%80%E2%80%AE%C2%9B2J%20level=ERROR")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a request without the token: %s", resp.Status)
	}
	cmd.Process.Kill()
	cmd.Wait()
	out := stderr.String()
	if !strings.Contains(out, `x\\u{FE0F}\\u{3164}\\u{2800}\\u{202E}\\u{009B}2J level=ERROR`) {
		t.Errorf("the server's log does not name the path printably:\n%s", out)
	}
	terminaltest.CheckPrintable(t, "audit serve's log", out, "level=ERROR")
	if strings.ContainsRune(out, '\u2800') {
		t.Errorf("the server's log carries the braille blank:\n%s", out)
	}
}
