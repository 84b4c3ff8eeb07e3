package e2e

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/adapter"
	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterClaudeHookProtocol checks, with the real Claude Code and no
// bridge in between, that Claude honours what the Claude adapter gives it:
// settings in _meta.claudeCode.options.extraArgs.settings, a PreToolUse
// command hook running "acp-bridge hook", the hook's deny (the model gets the
// reason, not the file), its updatedInput (a limit on a large Read) with
// additionalContext, and the hook's own denial when the socket is gone. The
// decisions come from a hook server in this test, so the Claude side is
// checked whatever the bridge's policy features do.
func TestAdapterClaudeHookProtocol(t *testing.T) {
	s := needSuite(t)
	a := &claudeAgent
	w := newWorkspace(t)
	text, needle := bigText(20000)

	var mu sync.Mutex
	var calls []adapter.ToolCall
	inner := adapter.DeciderFunc(func(_ context.Context, c adapter.ToolCall) (adapter.Decision, error) {
		mu.Lock()
		calls = append(calls, c)
		mu.Unlock()
		if strings.HasSuffix(string(c.Input), `.env"}`) {
			return adapter.Decision{Verdict: adapter.Deny, Reason: "hook-protocol-test denies .env"}, nil
		}
		return adapter.Decision{}, nil
	})
	srv, err := adapter.ListenHook(adapter.LimitLargeReads(inner, adapter.ReadLimit{Threshold: 15000}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	settingsFor := func(socket string) string {
		st, _ := adapter.BuildClaudeSettings(adapter.Rules{}, adapter.HookCommand(s.bridge, socket))
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	meta := func(settings string) map[string]any {
		return map[string]any{"claudeCode": map[string]any{"options": map[string]any{"extraArgs": map[string]any{"settings": settings}}}}
	}

	t.Run("deny and limit", func(t *testing.T) {
		r := start(t, s, a, w, runOptions{
			name:  "hook-protocol",
			files: map[string]string{".env": envSecret + "\n", "big.txt": text},
			script: fakemodel.Script{Steps: []fakemodel.Step{
				a.read(w.path(".env")),
				a.read(w.path("big.txt")),
				fakemodel.Text("Done."),
			}},
			client: clientScript{Permission: "allow", Prompts: textPrompts("Read .env, then big.txt."), SessionMeta: meta(settingsFor(srv.SocketPath()))},
		})
		r.mustSucceed()
		r.noLeftovers()
		if secretReachedModel(r) {
			t.Errorf("the .env content reached the model")
		}
		reqs := mainRequestsText(r)
		if len(reqs) < 3 {
			t.Fatalf("%d main requests, want 3\n%s", len(reqs), r.stderrTail())
		}
		if got := toolResultText(t, reqs[1], "toolu_fake_step0"); !strings.Contains(got, "hook-protocol-test denies .env") {
			t.Errorf("the model did not get the hook's reason for the denied read; it got %q", got)
		}
		res := toolResultText(t, reqs[2], "toolu_fake_step1")
		got, total := fakemodel.CountTokens(res), fakemodel.CountTokens(text)
		t.Logf("big.txt: %d tokens; the model received %d (%.1f%%)", total, got, 100*float64(got)/float64(total))
		if got == 0 || got*10 > total || strings.Contains(reqs[2], needle) {
			t.Errorf("the large read was not limited to 10%% of the file: %d of %d tokens", got, total)
		}
		if !strings.Contains(reqs[2], "offset") || !strings.Contains(reqs[2], w.path("big.txt")) {
			t.Errorf("the model was not told how to read the rest of big.txt")
		}
		mu.Lock()
		defer mu.Unlock()
		if len(calls) < 2 || calls[0].Tool != "Read" || !strings.Contains(string(calls[0].Input), ".env") || calls[0].SessionID == "" {
			t.Errorf("the hook server saw %+v, want Claude's Read calls with their input and session", calls)
		}
	})

	t.Run("socket from the environment", func(t *testing.T) {
		// The hook command names no socket: it must come from the agent's
		// environment (ACP_BRIDGE_HOOK_SOCKET, which the bridge sets when it
		// starts the agent), passed on by claude-agent-acp and Claude Code.
		withEnv := *a
		withEnv.env = func(url string) []string {
			return append(a.env(url), adapter.HookSocketEnv+"="+srv.SocketPath())
		}
		st, _ := adapter.BuildClaudeSettings(adapter.Rules{}, shellQuote(s.bridge)+" hook")
		b, _ := json.Marshal(st)
		r := start(t, s, &withEnv, w, runOptions{
			name:   "hook-env",
			files:  map[string]string{".env": envSecret + "\n"},
			script: fakemodel.Script{Steps: []fakemodel.Step{a.read(w.path(".env")), fakemodel.Text("Done.")}},
			client: clientScript{Permission: "allow", Prompts: textPrompts("Read .env."), SessionMeta: meta(string(b))},
		})
		r.mustSucceed()
		r.noLeftovers()
		reqs := mainRequestsText(r)
		if secretReachedModel(r) || len(reqs) < 2 || !strings.Contains(toolResultText(t, reqs[1], "toolu_fake_step0"), "hook-protocol-test denies .env") {
			t.Errorf("the hook did not reach the bridge through the socket in its environment")
		}
	})

	t.Run("bridge unreachable", func(t *testing.T) {
		const note = "hook-protocol-note-8812"
		r := start(t, s, a, w, runOptions{
			name:   "hook-unreachable",
			files:  map[string]string{"notes.txt": note + "\n"},
			script: fakemodel.Script{Steps: []fakemodel.Step{a.read(w.path("notes.txt")), fakemodel.Text("Could not.")}},
			client: clientScript{Permission: "allow", Prompts: textPrompts("Read notes.txt."),
				SessionMeta: meta(settingsFor(filepath.Join(w.base, "no-bridge", "hook.sock")))},
		})
		r.mustSucceed()
		r.noLeftovers()
		reqs := mainRequestsText(r)
		for i, b := range reqs {
			if strings.Contains(b, note) {
				t.Fatalf("main request %d carries the file: Claude ran the tool although the hook could not reach the bridge", i+1)
			}
		}
		if len(reqs) < 2 || !strings.Contains(toolResultText(t, reqs[1], "toolu_fake_step0"), "fail closed") {
			t.Errorf("the model was not told the hook denied the call")
		}
	})
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
