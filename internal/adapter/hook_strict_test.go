package adapter

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
)

// TestHookReadsWhatClaudeWrote: the hook server reads a payload the way
// the JavaScript that wrote it does (case-exact names), and refuses one
// whose reading depends on the reader (a duplicate name at any depth,
// invalid UTF-8) without asking the decider.
func TestHookReadsWhatClaudeWrote(t *testing.T) {
	tests := []struct {
		name string
		line string
		// path is the file_path the decider must see; "" means the
		// decider must not be asked and the answer is deny.
		path string
	}{
		{"tool_input and TOOL_INPUT",
			`{"agent":"claude","event":{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/ws/.env"},"TOOL_INPUT":{"file_path":"/ws/a.txt"},"tool_use_id":"t1"}}`,
			"/ws/.env"},
		{"duplicate tool_input",
			`{"agent":"claude","event":{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/ws/.env"},"tool_input":{"file_path":"/ws/a.txt"},"tool_use_id":"t1"}}`,
			""},
		{"duplicate file_path",
			`{"agent":"claude","event":{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/ws/.env","file_path":"/ws/a.txt"},"tool_use_id":"t1"}}`,
			""},
		{"duplicate tool_name",
			`{"agent":"claude","event":{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"file_path":"/ws/a.txt"},"tool_name":"Read","tool_use_id":"t1"}}`,
			""},
		{"duplicate event",
			`{"agent":"claude","event":{"tool_name":"Read","tool_input":{"file_path":"/ws/.env"}},"event":{"tool_name":"Read","tool_input":{"file_path":"/ws/a.txt"}}}`,
			""},
		{"invalid UTF-8",
			"{\"agent\":\"claude\",\"event\":{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"/ws/\xff.env\"}}}",
			""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen []ToolCall
			s := listenHook(t, func(_ context.Context, c ToolCall) (Decision, error) {
				mu.Lock()
				seen = append(seen, c)
				mu.Unlock()
				return Decision{Verdict: Allow}, nil
			})
			conn, err := net.Dial("unix", s.SocketPath())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.Write([]byte(tt.line + "\n")); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(conn).ReadBytes('\n')
			if err != nil {
				t.Fatal(err)
			}
			var resp HookResponse
			if err := json.Unmarshal(line, &resp); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if tt.path == "" {
				if resp.Decision != Deny || len(seen) != 0 {
					t.Fatalf("answer %+v after asking the decider %d times, want deny without asking", resp, len(seen))
				}
				return
			}
			if len(seen) != 1 || !strings.Contains(string(seen[0].Input), tt.path) {
				t.Fatalf("decider saw %+v, want one call on %s", seen, tt.path)
			}
		})
	}
}
