package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/adapter"
	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterClaudeHookProtocol checks, with the real Claude Code and no
// bridge in between, what the bridged scenarios cannot show: that a deny
// from the hook itself reaches the model as the hook's reason (through the
// bridge, Claude's own copy of the rule refuses first), and that the hook
// finds the bridge through ACP_BRIDGE_HOOK_SOCKET alone. The decisions come
// from a hook server in this test.
func TestAdapterClaudeHookProtocol(t *testing.T) {
	s, a, w := claudeScene(t)

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
	srv, err := adapter.ListenHook(inner, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	// The socket's path in the hook command, or, with none there, in the
	// agent's environment (ACP_BRIDGE_HOOK_SOCKET, which the bridge sets
	// when it starts the agent), passed on by claude-agent-acp and Claude
	// Code.
	withEnv := *a
	withEnv.env = func(url string) []string {
		return append(a.env(url), adapter.HookSocketEnv+"="+srv.SocketPath())
	}
	for _, tc := range []struct {
		name, run string
		agent     *agentSpec
		hook      string // the hook command in Claude's settings
	}{
		{"deny", "hook-protocol", a, adapter.HookCommand(s.bridge, srv.SocketPath())},
		{"socket from the environment", "hook-env", &withEnv, shellQuote(s.bridge) + " hook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			calls = nil
			mu.Unlock()
			st, _ := adapter.BuildClaudeSettings(adapter.Rules{}, tc.hook)
			settings, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			meta := map[string]any{"claudeCode": map[string]any{"options": map[string]any{"extraArgs": map[string]any{"settings": string(settings)}}}}
			r := start(t, s, tc.agent, w, runOptions{
				name:   tc.run,
				files:  map[string]string{".env": envSecret + "\n"},
				script: fakemodel.Script{Steps: []fakemodel.Step{a.read(w.path(".env")), fakemodel.Text("Done.")}},
				client: clientScript{Permission: "allow", Prompts: textPrompts("Read .env."), SessionMeta: meta},
			})
			r.mustSucceed()
			r.noLeftovers()
			if secretReachedModel(r) {
				t.Errorf("the .env content reached the model")
			}
			reqs := mainRequestsText(r)
			if len(reqs) < 2 {
				t.Fatalf("%d main requests, want 2\n%s", len(reqs), r.stderrTail())
			}
			if got := toolResultText(t, reqs[1], "toolu_fake_step0"); !strings.Contains(got, "hook-protocol-test denies .env") {
				t.Errorf("the model did not get the hook's reason for the denied read; it got %q", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(calls) < 1 || calls[0].Tool != "Read" || !strings.Contains(string(calls[0].Input), ".env") || calls[0].SessionID == "" {
				t.Errorf("the hook server saw %+v, want Claude's Read call with its input and session", calls)
			}
		})
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
