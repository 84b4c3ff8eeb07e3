package adapter

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// observeLog runs Gemini's Observe on one session/update line with an
// audit log kept as mode says, and returns the log's text.
func observeLog(t *testing.T, mode audit.ContentMode, line string) string {
	t.Helper()
	return observeWith(t, mode, line, func(log *audit.Log) *gemini {
		return &gemini{audit: log, dir: t.TempDir(), operator: "agent:gemini", logger: slog.New(slog.DiscardHandler)}
	})
}

// observeWith has the adapter newAdapter makes, writing to a fresh log,
// observe line, and returns the log.
func observeWith(t *testing.T, mode audit.ContentMode, line string, newAdapter func(*audit.Log) *gemini) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(path, audit.Options{Content: mode})
	if err != nil {
		t.Fatal(err)
	}
	g := newAdapter(log)
	m, err := acpwire.Parse(acpwire.AgentToClient, []byte(line))
	if err != nil {
		t.Fatalf("parsing the update: %v", err)
	}
	g.Observe(m)
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkRecorded checks that log holds every string of want, or, with
// want nil, no tool.call record at all (none says what such a record
// would be).
func checkRecorded(t *testing.T, log string, want []string, none string) {
	t.Helper()
	if want == nil {
		if strings.Contains(log, `"tool.call"`) {
			t.Fatalf("a record for %s:\n%s", none, log)
		}
		return
	}
	for _, w := range want {
		if !strings.Contains(log, w) {
			t.Errorf("log lacks %s:\n%s", w, log)
		}
	}
}

// TestGeminiObserveStoresOutputAsContentSays checks that a call Gemini's
// policy engine refused keeps its content the way the audit log's
// --audit-content says: a long output becomes a digest record by default,
// and is kept whole with full.
func TestGeminiObserveStoresOutputAsContentSays(t *testing.T) {
	long := strings.Repeat("word ", 600) // 3,000 bytes: over the 1 KiB preview
	line := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update",` +
		`"toolCallId":"run_shell_command__1","status":"failed","rawInput":{"command":"cat .env"},` +
		`"content":[{"type":"content","content":{"type":"text","text":"denied by policy ` + long + `"}}]}}}`
	for _, tt := range []struct {
		mode       audit.ContentMode
		wantDigest bool
	}{
		{audit.ContentDigest, true},
		{audit.ContentFull, false},
	} {
		t.Run(tt.mode.String(), func(t *testing.T) {
			got := observeLog(t, tt.mode, line)
			if !strings.Contains(got, `"tool.call"`) {
				t.Fatalf("no tool.call record for the refused call:\n%s", got)
			}
			if digest := strings.Contains(got, `"$digest":true`); digest != tt.wantDigest {
				t.Errorf("digest record stored = %v, want %v:\n%.600s", digest, tt.wantDigest, got)
			}
			if whole := strings.Contains(got, long); whole == tt.wantDigest {
				t.Errorf("whole output stored = %v, want %v", whole, !tt.wantDigest)
			}
		})
	}
}

// TestGeminiObserveReadsAsTheIDE checks that Observe reads a refused call's
// update as the IDE does (acpparams): member names case-exact, so a member
// that differs from toolCallId only in case names no call, and the record
// names the call the IDE shows; an update that is not a refused tool call
// leaves no record.
func TestGeminiObserveReadsAsTheIDE(t *testing.T) {
	const denied = `"content":[{"type":"content","content":{"type":"text","text":"Tool execution denied by policy."}}]`
	update := func(members string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{` + members + `}}}`
	}
	for _, tt := range []struct {
		name, line string
		want       []string // in the log; none: no record
	}{
		{"refused", update(`"sessionUpdate":"tool_call","toolCallId":"run_shell_command__1","status":"failed","title":"cat .env",` + denied),
			[]string{`"ref":"run_shell_command__1"`, `"tool":"run_shell_command"`, `"title":"cat .env"`, `"session":"s1"`}},
		{"name in another case", update(`"sessionUpdate":"tool_call_update","toolCallId":"read_file__1","TOOLCALLID":"run_shell_command__2","status":"failed",` + denied),
			[]string{`"ref":"read_file__1"`, `"tool":"read_file"`}},
		{"status in another case", update(`"sessionUpdate":"tool_call_update","toolCallId":"run_shell_command__1","Status":"failed",` + denied), nil},
		{"completed", update(`"sessionUpdate":"tool_call_update","toolCallId":"run_shell_command__1","status":"completed",` + denied), nil},
		{"not a tool call", update(`"sessionUpdate":"agent_message_chunk","status":"failed",` + denied), nil},
		{"denial only in the title", update(`"sessionUpdate":"tool_call","toolCallId":"x__1","status":"failed","title":"denied by policy"`), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkRecorded(t, observeLog(t, audit.ContentFull, tt.line), tt.want, "an update that is no refused call")
		})
	}
}
