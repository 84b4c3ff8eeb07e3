package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// writeEvents writes evs through the audit package to a new log at path,
// one second apart from 2026-11-21 20:00:01 UTC, with runID as the run's
// id (the log picks one when it is empty).
func writeEvents(t *testing.T, path, runID string, evs []audit.Event) {
	t.Helper()
	clock := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	audittest.Append(t, path, audit.Options{Now: func() time.Time { clock = clock.Add(time.Second); return clock }, RunID: runID}, evs...)
}

// writtenLog writes a log with write into a temporary file and returns
// its path and bytes.
func writtenLog(t *testing.T, write func(*testing.T, string)) (path string, data []byte) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "audit.jsonl")
	write(t, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

// writeAuditLog writes a two-session log through the audit package.
func writeAuditLog(t *testing.T, path string) {
	t.Helper()
	agent := audit.Actor{ID: "agent:claude-code", Role: "operator"}
	evs := []audit.Event{
		{Actor: audit.Actor{ID: "user:ide"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: "s1"}, Input: "fix the build"},
		{Actor: agent, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: "t1"},
			Policy: &audit.Policy{Ref: "Bash(rm:*)", Decision: audit.DecisionDeny},
			Metadata: map[string]any{"toolCall": audit.ToolCall{Kind: "tool-call", Session: "s1", ToolCallID: "t1", Tool: "Bash",
				Arguments: map[string]any{"command": "rm -rf /"}, Error: "denied"}}},
		{Actor: agent, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: "t2"},
			Policy: &audit.Policy{Ref: "ask-edits", Decision: audit.DecisionRequireApproval},
			Metadata: map[string]any{"toolCall": audit.ToolCall{Kind: "tool-call", Session: "s1", ToolCallID: "t2", Tool: "Edit",
				Arguments: map[string]any{"path": "main.go"}, Result: "ok", Approval: "user:alice"}}},
		{Actor: audit.Actor{ID: "user:ide"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: "s2"}, Input: "hello"},
	}
	writeEvents(t, path, "20261121T200000Z-0000000a", evs)
}

// newAuditLog has write write a log to audit.jsonl in a fresh temporary
// directory and returns the directory, the log's path and its bytes.
func newAuditLog(t *testing.T, write func(*testing.T, string)) (dir, log string, data []byte) {
	t.Helper()
	dir = t.TempDir()
	log = filepath.Join(dir, "audit.jsonl")
	write(t, log)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return dir, log, data
}

// writeLogVariant writes data, a log the test altered, to name in dir and
// returns its path.
func writeLogVariant(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAuditCommands(t *testing.T) {
	dir, log, data := newAuditLog(t, writeAuditLog)
	tampered := writeLogVariant(t, dir, "tampered.jsonl", bytes.Replace(data, []byte("rm -rf /"), []byte("ls -la /"), 1))
	headless := writeLogVariant(t, dir, "headless.jsonl", data[bytes.IndexByte(data, '\n')+1:])
	notLog := writeLogVariant(t, dir, "notes.txt", []byte("hello\n"))
	torn := writeLogVariant(t, dir, "torn.jsonl", append(bytes.Clone(data), `{"$schema":"agentgov`...))

	tests := []struct {
		name    string
		args    []string
		code    int
		want    []string // substrings of stdout, in order
		wantErr string   // substring of stderr
	}{
		{"verify ok", []string{"verify", log}, 0, []string{"ok: 4 events in 1 file, seq 0..3, head "}, ""},
		{"verify tampered metadata", []string{"verify", tampered}, 1, []string{"FAIL " + tampered + ":2: metadataHash ", "metadata was altered"}, ""},
		{"verify torn", []string{"verify", torn}, 1, []string{"FAIL " + torn + ":5: torn last line: 20 bytes without a newline"}, ""},
		{"verify without the first event", []string{"verify", headless}, 0, []string{"ok: 3 events", "note: the chain starts at seq 1, not at GENESIS"}, ""},
		{"verify --genesis without the first event", []string{"verify", "--genesis", headless}, 1, []string{"FAIL " + headless + ":1: the chain starts at seq 1, not at GENESIS"}, ""},
		{"repair torn", []string{"repair", torn}, 0, []string{torn + ": removed a torn last line (20 bytes"}, ""},
		{"verify after repair", []string{"verify", torn}, 0, []string{"ok: 4 events"}, ""},
		{"repair clean", []string{"repair", log}, 0, []string{"no torn line, nothing to do"}, ""},
		{"sessions", []string{"sessions", log}, 0, []string{
			"SESSION  RUN                        AGENT              START                 END        EVENTS  PROMPTS  TOOL CALLS  APPROVED  REFUSED  DENIED",
			"s1       20261121T200000Z-0000000a  agent:claude-code  2026-11-21 20:00:01Z  20:00:03Z       3        1           2         1        0       1",
			"s2       20261121T200000Z-0000000a  agent:claude-code  2026-11-21 20:00:04Z  20:00:04Z       1        1           0         0        0       0"}, ""},
		{"show run filter", []string{"show", "--run", "20261121T200000Z-0000000a", log}, 0, []string{"run 20261121T200000Z-0000000a", "session s1"}, ""},
		{"show other run", []string{"show", "--run", "20000101T000000Z-00000000", log}, 0, []string{"no matching events"}, ""},
		{"verify not a log", []string{"verify", notLog}, 1, []string{"FAIL " + notLog + ":1: not an audit log: the first line is not an audit event"}, ""},
		{"show not a log", []string{"show", notLog}, 1, nil, "not an audit log"},
		{"sessions not a log", []string{"sessions", notLog}, 1, nil, "not an audit log"},
		{"stdin twice", []string{"verify", "-", "-"}, 2, nil, "standard input (-) given twice"},
		{"tail stdin", []string{"tail", "-"}, 2, nil, "standard input cannot be followed"},
		{"tail a device", []string{"tail", "/dev/zero"}, 1, nil, "not a regular file"},
		{"verify a device", []string{"verify", "/dev/zero"}, 1, []string{"FAIL /dev/zero:1: not an audit log"}, ""},
		{"show session", []string{"show", "--session", "s1", log}, 0, []string{
			"session s1",
			"20:00:01.000       0  session.prompt",
			`"fix the build"`,
			"20:00:02.000       1  tool.call             deny              Bash(rm:*)              agent:claude-code       Bash rm -rf / ✗ denied",
			"require-approval  ask-edits               approved: user:alice    Edit main.go → ok"}, ""},
		{"flags after file", []string{"show", log, "--tool", "edit"}, 0, []string{"Edit main.go"}, ""},
		{"show json filter", []string{"show", "--decision", "deny", "--json", log}, 0, []string{`"action":"tool.call"`, `"seq":1,`}, ""},
		{"show since", []string{"show", "--since", "2026-11-21T20:00:04Z", log}, 0, []string{"session s2", "hello"}, ""},
		{"show tampered warns", []string{"show", tampered}, 0, []string{"ls -la /"}, "WARNING: the log does not verify"},
		{"tail", []string{"tail", "-n", "1", log}, 0, []string{"TIME", `"hello"`}, ""},
		{"bad decision", []string{"show", "--decision", "maybe", log}, 2, nil, "--decision"},
		{"unknown command", []string{"frobnicate"}, 2, nil, "unknown command"},
		{"no file", []string{"verify"}, 2, nil, "no file given"},
		{"show no file", []string{"show", "--tool", "edit"}, 2, nil, "audit show: no file given"},
		{"serve no path", []string{"serve", "--listen", "127.0.0.1:0"}, 2, nil, "audit serve: no file or directory given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCmd(t, "", append([]string{"audit"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			rest := out
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("stdout lacks %q (in order)\nstdout:\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
			if !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantErr, errOut)
			}
			if tt.wantErr == "" && errOut != "" {
				t.Errorf("unexpected stderr:\n%s", errOut)
			}
		})
	}
}

func TestAuditTailFollow(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	writeAuditLog(t, log)
	ctx, cancel := context.WithCancel(context.Background())
	var out lockedBuffer
	done := make(chan error)
	go func() {
		done <- run(ctx, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out}, []string{"audit", "tail", "-f", "-n", "0", log})
	}()
	// The header is printed once the starting offset is known.
	deadline := time.Now().Add(30 * time.Second) // ends when the header is out; only a failure waits it out
	for !strings.Contains(out.String(), "TIME") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "TIME") {
		t.Fatalf("audit tail -f printed no header in 30 s:\n%s", out.String())
	}
	audittest.Append(t, log, audit.Options{}, audit.Event{Actor: audit.Actor{ID: "user:ide"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: "s3"}, Input: "followed prompt"})
	deadline = time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "followed prompt") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, `"followed prompt"`) || strings.Contains(got, "fix the build") {
		t.Errorf("tail -f -n 0 printed:\n%s", got)
	}
}
