package compress

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// TestSessionsOnlyTheIDEOpened holds the pipeline to the sessions the IDE
// opened and has not closed. It speaks to the IDE on its own, past every
// middleware outside it (governance's session scope among them): estimated
// usage_updates when a level changes, notes, command lists. An agent
// streaming text in a session the IDE never opened (one whose load or
// resume the agent refused among them, or the bridge answered with an
// error in its place), or has closed, made it
// send a usage_update in that session's name, and its oversized tool call
// content was offloaded and the message rewritten before governance
// refused it. Such messages pass untouched, and nothing is kept for them.
func TestSessionsOnlyTheIDEOpened(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 200) // 3,400 bytes: RED of a 1,000-token window, over 500 tokens
	tests := []struct {
		name    string
		session string
		before  func(h *harness) // what the IDE does first
		attack  []string         // the agent's messages, each must reach the IDE byte for byte
	}{
		{name: "never opened, message text", session: "evil", attack: []string{agentSays("evil", big)}},
		{name: "never opened, thought", session: "evil", attack: []string{update("evil", map[string]any{"sessionUpdate": "agent_thought_chunk", "content": textBlock(big)})}},
		{name: "never opened, tool call content", session: "evil", attack: []string{update("evil", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "notes",
			"kind": "think", "status": "completed", "content": []any{map[string]any{"type": "content", "content": textBlock(strings.Repeat("a1 ", 1200))}}})}},
		{name: "never opened, many small chunks", session: "evil", attack: []string{agentSays("evil", big[:1200]), agentSays("evil", big[:1200]), agentSays("evil", big[:1200])}},
		{name: "closed", session: "s1", before: func(h *harness) {
			h.exchange(`{"jsonrpc":"2.0","id":7,"method":"session/close","params":{"sessionId":"s1"}}`, `{"jsonrpc":"2.0","id":7,"result":{}}`)
		}, attack: []string{agentSays("s1", big)}},
		{name: "load refused", session: "gone", before: func(h *harness) {
			h.exchange(`{"jsonrpc":"2.0","id":8,"method":"session/load","params":{"sessionId":"gone","cwd":"/repo","mcpServers":[]}}`,
				`{"jsonrpc":"2.0","id":8,"error":{"code":-32002,"message":"no such session"}}`)
		}, attack: []string{agentSays("gone", big)}},
		{name: "load answered in the agent's place", session: "gone", before: func(h *harness) {
			// The agent's answer is refused, and the bridge answers the
			// IDE with an error in its place.
			h.exchange(`{"jsonrpc":"2.0","id":8,"method":"session/load","params":{"sessionId":"gone","cwd":"/repo","mcpServers":[]}}`,
				`{"jsonrpc":"2.0","id":8,"result":{},"error":{"code":-32002,"message":"no such session"}}`)
		}, attack: []string{agentSays("gone", big)}},
		{name: "resume answered in the agent's place", session: "gone", before: func(h *harness) {
			h.exchange(`{"jsonrpc":"2.0","id":9,"method":"session/resume","params":{"sessionId":"gone","cwd":"/repo","mcpServers":[]}}`,
				`{"jsonrpc":"2.0","id":9,"result":{},"error":{"code":-32002,"message":"no such session"}}`)
		}, attack: []string{agentSays("gone", big)}},
		{name: "resume refused", session: "gone", before: func(h *harness) {
			h.exchange(`{"jsonrpc":"2.0","id":9,"method":"session/resume","params":{"sessionId":"gone","cwd":"/repo","mcpServers":[]}}`,
				`{"jsonrpc":"2.0","id":9,"error":{"code":-32002,"message":"no such session"}}`)
		}, attack: []string{agentSays("gone", big)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, Config{ContextSize: 1000, OffloadTokens: 500})
			if tt.before != nil {
				tt.before(h)
			}
			for _, line := range tt.attack {
				h.agent(line)
			}
			const sync = `{"jsonrpc":"2.0","method":"_test/sync","params":{}}`
			h.agent(sync)
			got := h.untilIDE(func(m []byte) bool { return string(m) == sync })
			if len(got) != len(tt.attack)+1 {
				for _, m := range got {
					t.Logf("IDE got %.300s", m)
				}
				t.Fatalf("IDE got %d messages, want the agent's %d and the sync: the pipeline spoke in session %q", len(got), len(tt.attack), tt.session)
			}
			for i, line := range tt.attack {
				if string(got[i]) != line {
					t.Errorf("message %d reached the IDE as %.300s, want it untouched", i, got[i])
				}
			}
			h.p.mu.Lock()
			_, kept := h.p.sessions[tt.session]
			h.p.mu.Unlock()
			if kept {
				t.Errorf("the pipeline keeps session %q", tt.session)
			}
			filepath.WalkDir(h.p.Store().Dir(), func(path string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					t.Errorf("the cache holds %s", path)
				}
				return nil
			})
		})
	}
}

// TestForkOpensSession: a session the agent forks for the IDE is one the
// IDE opened: the bridge offers its commands there and meters it.
func TestForkOpensSession(t *testing.T) {
	h := sessionHarness(t, Config{ContextSize: 1000})
	h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/fork","params":{"sessionId":"s1","cwd":"/repo","mcpServers":[]}}`)
	if m := h.readAgent(); str(m, "method") != "session/fork" {
		t.Fatalf("agent got %s", m)
	}
	h.agent(`{"jsonrpc":"2.0","id":5,"result":{"sessionId":"f1"}}`)
	if m := h.readIDE(); !isResponse("5")(m) {
		t.Fatalf("IDE got %s", m)
	}
	if m := h.readIDE(); str(m, "params", "sessionId") != "f1" || str(m, "params", "update", "sessionUpdate") != "available_commands_update" {
		t.Fatalf("IDE got %s, want the bridge's commands for the fork", m)
	}
	h.agent(agentSays("f1", strings.Repeat("word ", 240)))
	h.readIDE()
	if m := h.readIDE(); str(m, "params", "sessionId") != "f1" || str(m, "params", "update", "sessionUpdate") != "usage_update" {
		t.Fatalf("IDE got %s, want the estimate for the fork", m)
	}
}

// TestClosedWhileRequestPending: the IDE's answer to a request of the
// agent's in a session the IDE closed meanwhile does not bring the session
// back: the answer passes untouched (nothing offloaded to the cache), and
// the agent's text in that session gets no estimate of the bridge's.
func TestClosedWhileRequestPending(t *testing.T) {
	h := sessionHarness(t, Config{ContextSize: 1000, OffloadTokens: 500})
	h.agent(`{"jsonrpc":"2.0","id":"r1","method":"fs/read_text_file","params":{"sessionId":"s1","path":"/repo/big.txt"}}`)
	if m := h.readIDE(); str(m, "method") != "fs/read_text_file" {
		t.Fatalf("IDE got %s", m)
	}
	h.ide(`{"jsonrpc":"2.0","id":7,"method":"session/close","params":{"sessionId":"s1"}}`)
	h.readAgent()
	h.agent(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	h.readIDE()
	answer := mustJSON(map[string]any{"jsonrpc": "2.0", "id": "r1", "result": map[string]any{"content": strings.Repeat("a1 ", 1200)}})
	h.ide(answer)
	if m := h.readAgent(); string(m) != answer {
		t.Errorf("the agent got %.200s, want the IDE's answer untouched", m)
	}
	const sync = `{"jsonrpc":"2.0","method":"_test/sync","params":{}}`
	h.agent(agentSays("s1", strings.Repeat("word ", 700)))
	h.agent(sync)
	if got := h.untilIDE(func(m []byte) bool { return string(m) == sync }); len(got) != 2 {
		t.Errorf("IDE got %d messages, want the agent's and the sync: the pipeline spoke in the closed session", len(got))
	}
	filepath.WalkDir(h.p.Store().Dir(), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("the cache holds %s", path)
		}
		return nil
	})
}

// exchange has the IDE send the request req, which must reach the agent as
// a request of its method, and the agent answer it with answer, which must
// reach the IDE as the response to req's id.
func (h *harness) exchange(req, answer string) {
	h.t.Helper()
	h.ide(req)
	if m := h.readAgent(); str(m, "method") != str([]byte(req), "method") {
		h.t.Fatalf("agent got %s", m)
	}
	h.agent(answer)
	id, _ := rawjson.Get([]byte(req), "id")
	if m := h.readIDE(); !isResponse(string(id))(m) {
		h.t.Fatalf("IDE got %s", m)
	}
}

// TestLoadAnsweredNearerTheAgent: a feature nearer the agent than the
// pipeline (the Claude adapter, for a session it cannot apply the policy
// to) answers the IDE's session/load or resume with an error in the
// agent's place. The IDE never opened the session, and the pipeline,
// hearing of the answer (Answered, as cmd/acp-bridge wires it), keeps
// nothing for it and speaks to the IDE in no message of its own there.
func TestLoadAnsweredNearerTheAgent(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 200)
	for _, method := range []string{"session/load", "session/resume"} {
		t.Run(method, func(t *testing.T) {
			var p *Pipeline
			b := acpwire.New(acpwire.Options{OnAnswered: func(req *acpwire.Message, resp []byte) { p.Answered(req, resp) }})
			var err error
			if p, err = New(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), ContextSize: 1000, OffloadTokens: 500, EventLog: &strings.Builder{}}, b); err != nil {
				t.Fatal(err)
			}
			b.UseNonRetaining(p)
			b.Use(acpwire.Middleware(func(next acpwire.Handler) acpwire.Handler {
				return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
					if m.Method == method {
						return b.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams, "cannot apply the policy"))
					}
					return next.Handle(ctx, m)
				})
			}))
			h := &harness{Harness: acpwiretest.Start(t, b), t: t, p: p, log: &strings.Builder{}}
			h.newSession(1, "/repo", "s1")
			h.ide(`{"jsonrpc":"2.0","id":8,"method":"` + method + `","params":{"sessionId":"gone","cwd":"/repo","mcpServers":[]}}`)
			if m := h.readIDE(); str(m, "error", "message") != "cannot apply the policy" {
				t.Fatalf("IDE got %s, want the refusal", m)
			}
			say := agentSays("gone", big)
			h.agent(say)
			const sync = `{"jsonrpc":"2.0","method":"_test/sync","params":{}}`
			h.agent(sync)
			if got := h.untilIDE(func(m []byte) bool { return string(m) == sync }); len(got) != 2 || string(got[0]) != say {
				t.Fatalf("IDE got %d messages (%.200q), want the agent's and the sync: the pipeline spoke in session gone", len(got), got)
			}
			p.mu.Lock()
			_, kept := p.sessions["gone"]
			p.mu.Unlock()
			if kept {
				t.Error("the pipeline keeps session gone")
			}
		})
	}
}
