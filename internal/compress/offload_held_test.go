package compress

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// dropMarked is middleware that drops every message in direction dir
// whose bytes hold "DROPME", as governance drops a tool call it blocks.
func dropMarked(dir acpwire.Direction) acpwire.Middleware {
	return func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			if m.Dir == dir && strings.Contains(string(m.Raw), "DROPME") {
				return nil
			}
			return next.Handle(ctx, m)
		})
	}
}

// droppingHarness runs the pipeline between two dropMarked layers: one
// nearer the IDE (dropping toward the IDE, where governance sits) and one
// nearer the agent (dropping toward the agent), with session s1 open.
func droppingHarness(t *testing.T, contextSize int64) *harness {
	t.Helper()
	var log strings.Builder
	b := acpwire.New(acpwire.Options{})
	p, err := New(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), EventLog: &log, OffloadTokens: 100, ContextSize: contextSize}, b)
	if err != nil {
		t.Fatal(err)
	}
	b.UseNonRetaining(dropMarked(acpwire.AgentToClient), p, dropMarked(acpwire.ClientToAgent))
	h := &harness{Harness: acpwiretest.Start(t, b), t: t, p: p, log: &log}
	h.newSession(1, "/repo", "s1")
	return h
}

// bigOutput is text well over 100 o200k tokens.
func bigOutput(mark string) string {
	return strings.Repeat("line of tool output "+mark+" with some words in it\n", 200)
}

// syncIDE waits until the bridge has handled every message the agent
// sent before (messages of a direction are handled in turn), and returns
// what the IDE got meanwhile.
func (h *harness) syncIDE() [][]byte {
	h.t.Helper()
	h.agent(agentSays("s1", "sync-mark"))
	return h.untilIDE(func(m []byte) bool { return strings.Contains(string(m), "sync-mark") })
}

// syncAgent waits until the bridge has handled every message the IDE
// sent before.
func (h *harness) syncAgent() {
	h.t.Helper()
	h.ide(`{"jsonrpc":"2.0","method":"_sync/ping","params":{}}`)
	if got := h.readAgent(); !strings.Contains(string(got), "_sync/ping") {
		h.t.Fatalf("agent got %s, want the sync notification", got)
	}
}

// offloadedFiles returns the files in the pipeline's offload directory.
func offloadedFiles(t *testing.T, p *Pipeline) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(p.Store().OffloadedDir(), "*"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestOffloadRecordedOnlyWhenPassedOn holds the records of a tier 1
// offload to what reached a peer: an offload whose message a layer past
// the pipeline drops (governance blocking a tool call toward the IDE, an
// adapter toward the agent) is not in the event log (and so not in the
// audit log), not in the session's record, and its file is gone and no
// longer readable as an offload; one whose message is passed on is
// recorded.
func TestOffloadRecordedOnlyWhenPassedOn(t *testing.T) {
	tests := []struct {
		name string
		send func(h *harness)
		// passed: the message carrying the reference reaches its peer.
		passed bool
		source string
	}{
		{"tool call toward the IDE dropped", func(h *harness) {
			h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "DROPME", "kind": "execute", "status": "completed",
				"content": []any{map[string]any{"type": "content", "content": textBlock(bigOutput("a"))}}}))
			h.syncIDE()
		}, false, "tool call DROPME"},
		{"tool call toward the IDE passed", func(h *harness) {
			h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "notes", "kind": "think", "status": "completed",
				"content": []any{map[string]any{"type": "content", "content": textBlock(bigOutput("a"))}}}))
			if got := h.readIDE(); !strings.Contains(string(got), "Offloaded Content Reference") {
				t.Fatalf("IDE got %.300s, want the reference", got)
			}
			h.syncIDE()
		}, true, "tool call notes"},
		{"embedded resource toward the agent dropped", func(h *harness) {
			h.ide(promptMsg(2, "s1", textBlock("DROPME"), map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///repo/big.log", "text": bigOutput("b")}}))
			if got := h.readIDE(); !strings.Contains(string(got), `"error"`) {
				t.Fatalf("IDE got %s, want the bridge's error for the unanswered prompt", got)
			}
			h.syncAgent()
		}, false, "embedded resource file:///repo/big.log"},
		{"embedded resource toward the agent passed", func(h *harness) {
			h.ide(promptMsg(2, "s1", textBlock("review"), map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///repo/big.log", "text": bigOutput("b")}}))
			if got := h.readAgent(); !strings.Contains(string(got), "Offloaded Content Reference") {
				t.Fatalf("agent got %.300s, want the reference", got)
			}
			h.syncAgent()
		}, true, "embedded resource file:///repo/big.log"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := droppingHarness(t, 0)
			tt.send(h)
			files := offloadedFiles(t, h.p)
			logged := strings.Contains(h.log.String(), `"event":"TIER_1"`) && strings.Contains(h.log.String(), tt.source)
			s := h.p.lookup("s1")
			s.mu.Lock()
			noted := strings.Contains(s.rec.Archive(time.Time{}), "Offloaded Content Reference")
			s.mu.Unlock()
			if tt.passed {
				if len(files) != 1 || !logged || !noted || !h.p.Offloaded("s1", files[0]) {
					t.Fatalf("passed on: files %v, logged %v, noted %v; want one file, logged and noted, readable\n%s", files, logged, noted, h.log)
				}
				return
			}
			if logged || noted || len(files) != 0 {
				t.Fatalf("dropped: files %v, logged %v, noted %v; want no file and no record\n%s", files, logged, noted, h.log)
			}
			if _, err := os.Stat(h.p.Store().OffloadedDir()); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		})
	}
}

// TestToolCallRecordedOnlyWhenPassedOn holds the session's record of a
// tool call, and the TIER_2 event of its large edit body, to what reached
// the IDE: an edit the layer nearer the IDE drops (governance blocking
// it) is neither in the record (the archive, the summary) nor logged as
// written; one passed on is both.
func TestToolCallRecordedOnlyWhenPassedOn(t *testing.T) {
	for _, passed := range []bool{false, true} {
		t.Run(map[bool]string{false: "dropped", true: "passed"}[passed], func(t *testing.T) {
			h := droppingHarness(t, 1000)
			h.agent(agentSays("s1", strings.Repeat("a long reply that fills the context ", 200)))
			h.syncIDE()
			title := "Edit"
			if !passed {
				title = "DROPME"
			}
			h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "e1", "title": title, "kind": "edit", "status": "completed",
				"content": []any{map[string]any{"type": "diff", "path": "/repo/secret.cfg", "oldText": nil, "newText": strings.Repeat("key = value\n", 400)}}}))
			shown := false
			for _, m := range h.syncIDE() {
				shown = shown || strings.Contains(string(m), `"toolCallId":"e1"`)
			}
			if shown != passed {
				t.Fatalf("the IDE was shown the call: %v, want %v", shown, passed)
			}
			logged := strings.Contains(h.log.String(), `"event":"TIER_2"`)
			s := h.p.lookup("s1")
			s.mu.Lock()
			recorded := strings.Contains(s.rec.Archive(time.Time{}), "/repo/secret.cfg")
			s.mu.Unlock()
			if logged != passed || recorded != passed {
				t.Fatalf("TIER_2 logged %v, in the record %v; want %v\n%s", logged, recorded, passed, h.log)
			}
		})
	}
}

// TestAgentRequestRecordedOnlyWhenPassedOn: a terminal/create the layer
// nearer the IDE refuses (governance, for a command the policy denies)
// never runs: it is not in the session's record (the archive a checkpoint
// writes, which /bridge-recover searches and the person reads), nor is a
// refused write counted as the turn's work by the drift watch. One passed
// on is both.
func TestAgentRequestRecordedOnlyWhenPassedOn(t *testing.T) {
	for _, passed := range []bool{false, true} {
		t.Run(map[bool]string{false: "dropped", true: "passed"}[passed], func(t *testing.T) {
			h := droppingHarness(t, 1000)
			mark := "kept"
			if !passed {
				mark = "DROPME"
			}
			s := h.p.lookup("s1")
			s.mu.Lock()
			s.watch = &driftWatch{reason: "a test"}
			s.mu.Unlock()
			h.agent(`{"jsonrpc":"2.0","id":"t1","method":"terminal/create","params":{"sessionId":"s1","command":"rm","args":["-rf","` + mark + `-target"]}}`)
			h.agent(`{"jsonrpc":"2.0","id":"w1","method":"fs/write_text_file","params":{"sessionId":"s1","path":"/repo/` + mark + `.go","content":"package x\n"}}`)
			shown := 0
			for _, m := range h.syncIDE() {
				if strings.Contains(string(m), mark) {
					shown++
				}
			}
			if (shown == 2) != passed {
				t.Fatalf("the IDE got %d of the requests, passed %v", shown, passed)
			}
			s.mu.Lock()
			recorded := strings.Contains(s.rec.Archive(time.Time{}), mark+"-target")
			edits, touched := s.watch.obs.Edits, len(s.watch.obs.Touched)
			s.mu.Unlock()
			if recorded != passed {
				t.Errorf("terminal/create in the record: %v, want %v", recorded, passed)
			}
			if (edits == 1 && touched == 1) != passed {
				t.Errorf("drift watch counts %d edits, %d touched files; want them counted: %v", edits, touched, passed)
			}
		})
	}
}
