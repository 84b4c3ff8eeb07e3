// Package audittest writes audit logs for tests and benchmarks of the
// packages that read them.
package audittest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// WriteBusyLog writes n tool-call events over ten sessions to path with
// the real audit writer, each about 1.3 KB, as a busy bridge run would.
func WriteBusyLog(tb testing.TB, path string, n int) {
	tb.Helper()
	l, err := audit.Open(path, audit.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	out := strings.Repeat("PASS src/sum.test.js (3 tests) ", 12)
	args := json.RawMessage(`{"command":"npm run test -- --watch=false","cwd":"/work/project","timeout":120000}`)
	for i := range n {
		sess := fmt.Sprintf("sess-%d", i%10)
		id := fmt.Sprintf("toolu_%08d", i)
		ev := audit.Event{
			Actor:   audit.Actor{ID: "agent:claude-code", Role: "operator"},
			Action:  "tool.call",
			Subject: audit.Subject{Kind: "tool-call", Ref: id, Path: "/work/project"},
			Input:   args,
			Output:  map[string]any{"exitCode": 0, "stdout": out},
			Policy:  &audit.Policy{Ref: "allow-tests", Decision: audit.DecisionAllow},
			Metadata: map[string]any{"session": sess, "toolCall": audit.ToolCall{Kind: "tool-call", Operator: "claude-code", Session: sess,
				ToolCallID: id, Tool: "Bash", Arguments: args, Approval: "auto"}},
		}
		if err := l.Append(ev); err != nil {
			tb.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		tb.Fatal(err)
	}
}
