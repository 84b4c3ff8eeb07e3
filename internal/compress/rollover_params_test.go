package compress

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// innerSessionPatch is middleware inside the pipeline that adds to every
// session-opening request what the agent adapter adds (Claude's settings
// with the bridge's PreToolUse hook): _meta.policy.
func innerSessionPatch(next acpwire.Handler) acpwire.Handler {
	return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
		for _, meth := range []string{"session/new", "session/load", "session/resume", "session/fork"} {
			if m.IsRequest(meth) {
				out, err := m.Patch([]byte(`{"policy":"hook"}`), "params", "_meta")
				if err != nil {
					return err
				}
				m = out
			}
		}
		return next.Handle(ctx, m)
	})
}

// TestRolloverReusesParamsAsForwarded: the session/new a rollover sends
// reaches the agent past the middleware inside the pipeline, so it must
// carry the params of the request that opened the session as they reached
// the agent, with what that middleware added (the agent adapter's
// settings, its policy hook among them), however the IDE opened the
// session. A session the IDE reopened with session/load or session/resume
// was rolled over with the params as the pipeline saw them, before the
// adapter: a real Claude Code then read .env in the fresh session without
// the bridge's rules or hook (e2e TestAdapterClaudeLoadedRolloverKeepsPolicy).
func TestRolloverReusesParamsAsForwarded(t *testing.T) {
	for _, open := range []string{"session/new", "session/load", "session/resume", "session/fork"} {
		t.Run(open, func(t *testing.T) {
			b := acpwire.New(acpwire.Options{})
			p, err := New(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), EventLog: &strings.Builder{}}, b)
			if err != nil {
				t.Fatal(err)
			}
			b.UseNonRetaining(p, acpwire.Middleware(innerSessionPatch))
			h := &harness{Harness: acpwiretest.Start(t, b), t: t, p: p}
			params := map[string]any{"cwd": "/repo", "mcpServers": []any{}}
			if open != "session/new" {
				params["sessionId"] = "s1"
			}
			if open == "session/fork" {
				params["sessionId"] = "s0"
			}
			h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 1, "method": open, "params": params}))
			if m := h.readAgent(); str(m, "method") != open || str(m, "params", "_meta", "policy") != "hook" {
				t.Fatalf("agent got %s", m)
			}
			result := `{}`
			if open == "session/new" || open == "session/fork" {
				result = `{"sessionId":"s1"}`
			}
			h.agent(`{"jsonrpc":"2.0","id":1,"result":` + result + `}`)
			h.untilIDE(isResponse("1"))
			h.prompt(2, "s1", "Port the build to Bazel")
			h.fillContext(2, "s1", 90)
			req, id := h.rolloverAsked(3, "s1", "go on")
			if str(req, "params", "_meta", "policy") != "hook" || str(req, "params", "cwd") != "/repo" {
				t.Errorf("the rollover's session/new lacks what the middleware inside added: %s", req)
			}
			if _, ok := rawjson.Get(req, "params", "sessionId"); ok {
				t.Errorf("the rollover's session/new names a session: %s", req)
			}
			h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"s2"}}`, id))
			if m := h.readAgent(); str(m, "params", "sessionId") != "s2" {
				t.Fatalf("agent got %s, want the prompt in the fresh session", m)
			}
		})
	}
}

// TestRolloverFailureNoteQuotesAgent: the note telling the person a
// rollover failed quotes the agent's error on one line, so the agent's words
// cannot pass for a note of the bridge's own (a paragraph starting
// "> **acp-bridge:**").
func TestRolloverFailureNoteQuotesAgent(t *testing.T) {
	h, _ := checkpointedHarness(t)
	_, id := h.rolloverAsked(4, "s1", "go on")
	h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"busy\n\n> **acp-bridge:** the policy now allows every command."}}`, id))
	note := ""
	for _, m := range h.untilIDE(func(m []byte) bool { return strings.Contains(notes([][]byte{m}), "fresh agent session") }) {
		note += notes([][]byte{m})
	}
	if strings.Count(note, "**acp-bridge:**") != 2 || strings.Contains(note, "\n> **acp-bridge:** the policy") || strings.Count(strings.TrimSpace(note), "\n") != 0 {
		t.Errorf("note %q: the agent's error is not quoted on one line", note)
	}
}
