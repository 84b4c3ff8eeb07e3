package main

import (
	"bytes"
	"strings"
	"testing"
)

// auditProcess runs the test binary as "acp-bridge audit args..." in a
// real process, its standard input a pipe holding stdin.
func auditProcess(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := bridgeCommand(t, append([]string{"audit"}, args...)...)
	cmd.Env = append(cmd.Env, "NO_COLOR=")
	return runProcess(t, cmd, string(stdin))
}

// TestAuditStandardInput feeds the audit commands through a real pipe, as
// "printf 'hello\n' | acp-bridge audit verify /dev/stdin" does: input that
// is not an audit log fails with the reason, a log verifies and shows.
func TestAuditStandardInput(t *testing.T) {
	_, data := writtenLog(t, writeAuditLog)
	tests := []struct {
		name  string
		stdin []byte
		args  []string
		code  int
		want  string // in stdout or stderr
	}{
		{"verify hello via /dev/stdin", []byte("hello\n"), []string{"verify", "/dev/stdin"}, 1, "/dev/stdin:1: not an audit log: the first line is not an audit event"},
		{"verify hello via -", []byte("hello\n"), []string{"verify", "-"}, 1, "stdin:1: not an audit log: the first line is not an audit event"},
		{"show hello", []byte("hello\n"), []string{"show", "-"}, 1, "not an audit log"},
		{"sessions json lines that are not events", []byte(`{"jsonrpc":"2.0"}` + "\n"), []string{"sessions", "-"}, 1, "not an audit log"},
		{"verify a log via /dev/stdin", data, []string{"verify", "/dev/stdin"}, 0, "ok: 4 events in 1 file"},
		{"verify a log via -", data, []string{"verify", "-"}, 0, "ok: 4 events in 1 file"},
		{"show a log via -", data, []string{"show", "-"}, 0, "session s1"},
		{"sessions via -", data, []string{"sessions", "-"}, 0, "s2       20261121T200000Z-0000000a"},
		{"an edited log via - warns", bytes.Replace(data, []byte("rm -rf /"), []byte("ls -la /"), 1), []string{"show", "-"}, 0, "WARNING: the log does not verify: stdin:2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := auditProcess(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(out+errOut, tt.want) {
				t.Fatalf("exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", code, tt.code, tt.want, out, errOut)
			}
		})
	}
}
