//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/terminaltest"
)

// TestAuditJSONOnTerminal checks that --json, which prints the log's
// lines, does not carry the agent's C1 controls, bidirectional overrides
// and zero-width characters to a terminal (JSON escapes ESC and
// newlines, not those): on a terminal each line is the same JSON value
// with them escaped, into a pipe the log's bytes. 'sessions --json',
// which is not the log's lines, escapes them wherever it goes.
func TestAuditJSONOnTerminal(t *testing.T) {
	hostile, log := writtenLog(t, writeHostileLog)
	logLines := strings.Split(strings.TrimSuffix(string(log), "\n"), "\n")
	if !strings.ContainsRune(string(log), '\u009b') || !strings.ContainsRune(string(log), '\u202e') {
		t.Fatal("the hostile log holds no raw C1 control or bidirectional override")
	}
	for _, args := range [][]string{{"show", "--json", "--all", hostile}, {"tail", "--json", "-n", "100", hostile}} {
		out := runOnTerminal(t, "", args...)
		terminaltest.CheckPrintable(t, "audit "+strings.Join(args, " ")+" on a terminal", out, forgedPrefix)
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(got) != len(logLines) {
			t.Fatalf("audit %v: %d lines on the terminal, the log has %d:\n%s", args, len(got), len(logLines), out)
		}
		for i := range got {
			var a, b any
			if err := json.Unmarshal([]byte(got[i]), &a); err != nil {
				t.Fatalf("audit %v: line %d is not JSON: %v\n%s", args, i+1, err, got[i])
			}
			json.Unmarshal([]byte(logLines[i]), &b)
			if !jsonEqual(a, b) {
				t.Errorf("audit %v: line %d is another value than the log's:\n%s\n%s", args, i+1, got[i], logLines[i])
			}
		}
		// Into a pipe: the log's lines byte for byte, so they verify.
		piped, _, _ := auditProcess(t, nil, args...)
		if piped != string(log) {
			t.Errorf("audit %v into a pipe is not the log's bytes:\n%q", args, piped)
		}
	}
	out, _, _ := auditProcess(t, nil, "sessions", "--json", hostile)
	terminaltest.CheckPrintable(t, "audit sessions --json", out, forgedPrefix)
	if !strings.Contains(out, `"session":"\u202eFORGEDROW`) {
		t.Errorf("audit sessions --json lost the escaped override of a session id:\n%s", out)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
