package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/adapter"
)

// claudePayload is a PreToolUse payload as Claude Code 2.1 sends it to a
// command hook on stdin.
const claudePayload = `{"session_id":"0b0c6c1e-8f8e-4d5c-9a61-1f3a2b9c7d10","transcript_path":"/root/.claude/projects/-ws/0b0c6c1e.jsonl","cwd":"/ws","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/ws/.env"},"tool_use_id":"toolu_01ABC"}` + "\n"

func runHookCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCmd(t, stdin, append([]string{"hook"}, args...)...)
}

func TestHookSubcommand(t *testing.T) {
	var got adapter.ToolCall
	srv, err := adapter.ListenHook(adapter.DeciderFunc(func(_ context.Context, c adapter.ToolCall) (adapter.Decision, error) {
		got = c
		if c.Tool == "Read" {
			return adapter.Decision{Verdict: adapter.Deny, Reason: "acp-bridge policy: deny (rule: deny Read(**/.env))"}, nil
		}
		return adapter.Decision{}, nil
	}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	t.Run("deny from the bridge", func(t *testing.T) {
		stdout, stderr, code := runHookCmd(t, claudePayload, "--socket", srv.SocketPath())
		if code != 0 {
			t.Fatalf("exit %d, stderr %s", code, stderr)
		}
		want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"acp-bridge policy: deny (rule: deny Read(**/.env))"}}` + "\n"
		if stdout != want {
			t.Errorf("stdout:\n got %s\nwant %s", stdout, want)
		}
		if got.Tool != "Read" || string(got.Input) != `{"file_path":"/ws/.env"}` || got.SessionID != "0b0c6c1e-8f8e-4d5c-9a61-1f3a2b9c7d10" {
			t.Errorf("the bridge saw %+v", got)
		}
	})
	t.Run("socket from the environment", func(t *testing.T) {
		t.Setenv(adapter.HookSocketEnv, srv.SocketPath())
		stdout, _, code := runHookCmd(t, claudePayload)
		if code != 0 || !strings.Contains(stdout, `"permissionDecision":"deny"`) {
			t.Errorf("exit %d, stdout %s", code, stdout)
		}
	})
	t.Run("no opinion prints nothing", func(t *testing.T) {
		stdout, _, code := runHookCmd(t, `{"hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"pattern":"*"}}`, "--socket", srv.SocketPath())
		if code != 0 || stdout != "" {
			t.Errorf("exit %d, stdout %q; want 0 and nothing", code, stdout)
		}
	})
	t.Run("output is valid hook JSON", func(t *testing.T) {
		stdout, _, _ := runHookCmd(t, claudePayload, "--socket", srv.SocketPath())
		var v struct {
			HookSpecificOutput map[string]any `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(stdout), &v); err != nil || v.HookSpecificOutput["hookEventName"] != "PreToolUse" {
			t.Errorf("stdout %q: %v", stdout, err)
		}
	})
}

func TestHookSubcommandFailsClosed(t *testing.T) {
	t.Setenv(adapter.HookSocketEnv, "")
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"no socket", claudePayload, nil},
		{"socket missing", claudePayload, []string{"--socket", filepath.Join(t.TempDir(), "gone.sock")}},
		{"payload not JSON", "not json", []string{"--socket", "/nonexistent"}},
		{"bad flag", claudePayload, []string{"--nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runHookCmd(t, tt.stdin, tt.args...)
			// Exit status 2 is Claude Code's "block this tool call"; the
			// reason on stderr is shown to the model.
			if code != 2 || stdout != "" || !strings.Contains(stderr, "denied") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, no stdout, a denial on stderr", code, stdout, stderr)
			}
		})
	}
}
