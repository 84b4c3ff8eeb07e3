package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// linesAgent writes each of its arguments as a line, then waits for stdin
// to close.
const linesAgent = awaitOpen + `for l in "$@"; do printf '%s\n' "$l"; done; cat > /dev/null`

// TestBinaryAuditsWireRefusals runs the bridge binary with a policy and an
// audit log in front of an agent that sends, before one ordinary file read,
// each kind of line the wire layer refuses before any middleware sees it.
// None may reach the IDE; each must be in the audit log as a message.refused
// record of the wire stage, and the log must verify.
func TestBinaryAuditsWireRefusals(t *testing.T) {
	dir, ws := workspace(t)
	read := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"fs/read_text_file","params":` + params + `}`
	}
	path := func(name string) string { b, _ := json.Marshal(filepath.Join(ws, name)); return string(b) }
	refused := []struct{ name, line string }{
		{"byte order mark", "\ufeff" + read("bom", `{"sessionId":"s1","path":`+path(".env")+`}`)},
		// A reader that splits lines at a lone CR too (Node's readline)
		// would see two messages.
		{"two values split by a carriage return", read("cr1", `{"sessionId":"s1","path":`+path("a.txt")+`}`) + "\r" + read("cr2", `{"sessionId":"s1","path":`+path(".env")+`}`)},
		{"line separator before the value", "\u2028" + read("ls", `{"sessionId":"s1","path":`+path(".env")+`}`)},
		{"duplicate path", read("dup", `{"sessionId":"s1","path":`+path(".env")+`,"path":`+path("a.txt")+`}`)},
		{"case variant of path", read("case", `{"sessionId":"s1","Path":`+path(".env")+`,"path":`+path("a.txt")+`}`)},
		{"batch", "[" + read("batch", `{"sessionId":"s1","path":`+path(".env")+`}`) + "]"},
		{"not JSON", `read .env please`},
		{"response to nothing", `{"jsonrpc":"2.0","id":"never-asked","result":{}}`},
	}
	args := []string{"--policy", writePolicy(t, dir, "  deny: [Read(**/.env)]\n  allow: [Read]\n"), "--audit", filepath.Join(dir, "audit.jsonl"),
		"--workspace-root", ws, "--adapter", "none", "--log-level", "error", "--", "sh", "-c", linesAgent, "sh"}
	for _, r := range refused {
		args = append(args, r.line)
	}
	args = append(args, read("last", `{"sessionId":"s1","path":`+path("a.txt")+`}`))
	ide := startBinary(t, args...)
	ide.Timeout = 20 * time.Second
	openSession(t, ide, ws)
	// The agent's lines arrive in order: once the last read reaches the
	// IDE, the bridge has settled every line before it.
	got := ide.Until(`"id":"last"`)
	if err := ide.Wait(); err != nil {
		t.Fatalf("bridge: %v; stderr:\n%s", err, ide.Stderr())
	}
	if len(got) != 1 {
		t.Errorf("the IDE got %d messages, want only the last read:\n%s", len(got), strings.Join(got, "\n"))
	}

	b := audittest.Verified(t, filepath.Join(dir, "audit.jsonl"))
	var wire []string
	for line := range bytes.Lines(b) {
		if jsonAt(line, "action") == "message.refused" && jsonAt(line, "metadata", "stage") == "wire" {
			if jsonAt(line, "policy", "decision") != "deny" {
				t.Errorf("a wire refusal recorded without a deny: %s", line)
			}
			wire = append(wire, string(line))
		}
	}
	if len(wire) != len(refused) {
		t.Errorf("the audit log has %d wire refusals, want %d (one a line: %v):\n%s", len(wire), len(refused), refused, strings.Join(wire, ""))
	}
}
