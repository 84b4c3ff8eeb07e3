package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func allowAll(context.Context, ToolCall) (Decision, error) { return Decision{Verdict: Allow}, nil }

// listenHook starts a hook server answering with decide, closed when tb
// ends.
func listenHook(tb testing.TB, decide DeciderFunc) *HookServer {
	tb.Helper()
	s, err := ListenHook(decide, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// realPayload is a PreToolUse payload as Claude Code 2.1 sent it to a hook.
const realPayload = `{"session_id":"0b0c6c1e-8f8e-4d5c-9a61-1f3a2b9c7d10","transcript_path":"/root/.claude/projects/-ws/0b0c6c1e.jsonl","cwd":"/ws","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/ws/.env"},"tool_use_id":"toolu_01ABC"}`

func TestHookServerPermissions(t *testing.T) {
	s := listenHook(t, allowAll)
	st, err := os.Stat(s.SocketPath())
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&os.ModeSocket == 0 || st.Mode().Perm() != 0o600 {
		t.Errorf("socket mode = %v, want a socket with 0600", st.Mode())
	}
	dir := filepath.Dir(s.SocketPath())
	dst, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if dst.Mode().Perm() != 0o700 {
		t.Errorf("socket directory mode = %v, want 0700", dst.Mode().Perm())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("socket directory still there after Close: %v", err)
	}
}

func TestHookDecisions(t *testing.T) {
	var mu sync.Mutex
	var seen []ToolCall
	d := DeciderFunc(func(_ context.Context, c ToolCall) (Decision, error) {
		mu.Lock()
		seen = append(seen, c)
		mu.Unlock()
		switch c.Tool {
		case "Read":
			return Decision{Verdict: Deny, Reason: "policy denies Read(**/.env)"}, nil
		case "Bash":
			return Decision{Verdict: Ask, Reason: "needs approval"}, nil
		case "Boom":
			return Decision{}, fmt.Errorf("engine exploded")
		}
		return Decision{Verdict: Allow}, nil
	})
	s := listenHook(t, d)
	tests := []struct {
		name  string
		event string
		want  HookResponse
	}{
		{"deny", realPayload, HookResponse{Decision: Deny, Reason: "policy denies Read(**/.env)"}},
		{"ask", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`, HookResponse{Decision: Ask, Reason: "needs approval"}},
		{"allow", `{"hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"pattern":"*.go"}}`, HookResponse{Decision: Allow}},
		{"decider error denies", `{"hook_event_name":"PreToolUse","tool_name":"Boom","tool_input":{}}`, HookResponse{Decision: Deny, Reason: "acp-bridge: policy decision failed: engine exploded"}},
		{"no tool name denies", `{"hook_event_name":"PreToolUse","tool_input":{}}`, HookResponse{Decision: Deny, Reason: "acp-bridge: hook payload has no tool_name"}},
		{"not an object denies", `[1]`, HookResponse{Decision: Deny, Reason: "acp-bridge: hook payload: not a JSON object"}},
		{"other events get no opinion", `{"hook_event_name":"PostToolUse","tool_name":"Read"}`, HookResponse{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AskHook(context.Background(), s.SocketPath(), HookRequest{Agent: Claude, Event: json.RawMessage(tt.event)})
			if err != nil {
				t.Fatal(err)
			}
			if got.Decision != tt.want.Decision || got.Reason != tt.want.Reason {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	// The decider saw the real tool name and input of the first call.
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0].Tool != "Read" || string(seen[0].Input) != `{"file_path":"/ws/.env"}` ||
		seen[0].SessionID != "0b0c6c1e-8f8e-4d5c-9a61-1f3a2b9c7d10" || seen[0].ToolUseID != "toolu_01ABC" || seen[0].Cwd != "/ws" {
		t.Errorf("decider saw %+v", seen)
	}
}

func TestHookFailsClosed(t *testing.T) {
	ctx := context.Background()
	req := HookRequest{Agent: Claude, Event: json.RawMessage(realPayload)}
	t.Run("no socket given", func(t *testing.T) {
		if _, err := AskHook(ctx, "", req); err == nil {
			t.Error("AskHook with no socket succeeded")
		}
	})
	t.Run("socket missing", func(t *testing.T) {
		if _, err := AskHook(ctx, filepath.Join(t.TempDir(), "gone.sock"), req); err == nil {
			t.Error("AskHook to a missing socket succeeded")
		}
	})
	t.Run("bridge closed", func(t *testing.T) {
		s := listenHook(t, allowAll)
		s.Close()
		if _, err := AskHook(ctx, s.SocketPath(), req); err == nil {
			t.Error("AskHook to a closed bridge succeeded")
		}
	})
	t.Run("bridge too slow", func(t *testing.T) {
		release := make(chan struct{})
		s := listenHook(t, func(ctx context.Context, _ ToolCall) (Decision, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return Decision{Verdict: Allow}, nil
		})
		defer close(release)
		tctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if _, err := AskHook(tctx, s.SocketPath(), req); err == nil {
			t.Error("AskHook past its deadline succeeded")
		}
	})
}

func TestHookConcurrentDecisions(t *testing.T) {
	// Each decision waits until all callers are in, so the test passes only
	// if the server decides concurrently.
	const n = 16
	var arrived sync.WaitGroup
	arrived.Add(n)
	s := listenHook(t, func(_ context.Context, c ToolCall) (Decision, error) {
		arrived.Done()
		arrived.Wait()
		return Decision{Verdict: Allow, Reason: c.ToolUseID}, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("toolu_%d", i)
			ev := fmt.Sprintf(`{"hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{},"tool_use_id":%q}`, id)
			got, err := AskHook(ctx, s.SocketPath(), HookRequest{Agent: Claude, Event: json.RawMessage(ev)})
			if err != nil {
				errs <- err
				return
			}
			if got.Reason != id {
				errs <- fmt.Errorf("call %s got the answer for %s", id, got.Reason)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestClaudeHookOutput(t *testing.T) {
	tests := []struct {
		name string
		in   HookResponse
		want string
	}{
		{"no opinion prints nothing", HookResponse{}, ""},
		{"deny", HookResponse{Decision: Deny, Reason: "policy denies Read(**/.env)"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy denies Read(**/.env)"}}`},
		{"allow with updated input", HookResponse{Decision: Allow, Reason: "r", UpdatedInput: json.RawMessage(`{"file_path":"/a","limit":40}`), Context: "c"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"r","updatedInput":{"file_path":"/a","limit":40},"additionalContext":"c"}}`},
		{"no opinion with updated input", HookResponse{UpdatedInput: json.RawMessage(`{"file_path":"/a","limit":40}`)},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/a","limit":40}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(ClaudeHookOutput(tt.in)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func FuzzParseHookEvent(f *testing.F) {
	for _, s := range []string{realPayload, `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, `{}`, `[]`, `{"tool_input":1}`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ev, err := parseHookEvent(HookRequest{Agent: Claude, Event: json.RawMessage(s)})
		if err != nil {
			return
		}
		if ev == "PreToolUse" && c.Tool == "" {
			t.Fatalf("accepted a PreToolUse payload with no tool: %q", s)
		}
		if !json.Valid(c.Input) {
			t.Fatalf("tool input %q is not JSON", c.Input)
		}
	})
}

func TestAskHookRejectsBadUpdatedInput(t *testing.T) {
	s := listenHook(t, func(context.Context, ToolCall) (Decision, error) {
		return Decision{Verdict: Allow, UpdatedInput: json.RawMessage(`[1,2]`)}, nil
	})
	if got, err := AskHook(context.Background(), s.SocketPath(), HookRequest{Agent: Claude, Event: json.RawMessage(realPayload)}); err == nil {
		t.Errorf("AskHook accepted an updated input that is not an object: %+v", got)
	}
}

// BenchmarkHookRoundTrip measures one hook question over the socket, with a
// decider that answers at once: the bridge-side cost the hook adds to each of
// Claude's tool calls, besides starting the hook process.
func BenchmarkHookRoundTrip(b *testing.B) {
	s := listenHook(b, allowAll)
	req := HookRequest{Agent: Claude, Event: json.RawMessage(realPayload)}
	ctx := context.Background()
	for b.Loop() {
		if _, err := AskHook(ctx, s.SocketPath(), req); err != nil {
			b.Fatal(err)
		}
	}
}
