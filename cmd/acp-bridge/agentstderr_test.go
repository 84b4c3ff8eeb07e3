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
		if len(lines) != n || string(lines[n-1]) != agentStderrPrefix+strconv.Itoa(n) {
			last := []byte(nil)
			if len(lines) > 0 {
				last = lines[len(lines)-1]
			}
			t.Fatalf("the bridge's stderr has %d lines ending %q; want the agent's %d ending %q", len(lines), last, n, agentStderrPrefix+strconv.Itoa(n))
		}
	}
}

// TestAgentStderrMarked: each line of the agent's stderr is copied
// printable and marked as the agent's, however the writes split it, so
// that it can neither pass for a line of the bridge's log nor act on the
// terminal that shows it.
func TestAgentStderrMarked(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"plain", []string{"hello\n"}, "agent stderr: hello\n"},
		{"crlf end", []string{"hello\r\n"}, "agent stderr: hello\n"},
		{"forged log line", []string{"time=2026-01-01T00:00:00Z level=INFO msg=\"approved\"\n"}, "agent stderr: time=2026-01-01T00:00:00Z level=INFO msg=\"approved\"\n"},
		{"escape and osc 52", []string{"\x1b[32mok\x1b]52;c;ZWNobyBoaQ==\a\n"}, "agent stderr: \\x1b[32mok\\x1b]52;c;ZWNobyBoaQ==\\x07\n"},
		{"cr overwrite", []string{"denied\rallowed\n"}, "agent stderr: denied\\rallowed\n"},
		{"c1 and bidi", []string{"a\u009b31mb\u202ec\n"}, "agent stderr: a\\u{009B}31mb\\u{202E}c\n"},
		{"split writes", []string{"one\ntw", "o\n", "three"}, "agent stderr: one\nagent stderr: two\nagent stderr: three"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := agentStderr(&b)
			for _, s := range tc.writes {
				if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
					t.Fatalf("Write(%q) = %d, %v", s, n, err)
				}
			}
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
		})
	}
}
