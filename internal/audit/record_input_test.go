package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzSharedInput: a tool call's input given as input and as the mirror's
// arguments from the same bytes, which is read once (shareInput), makes
// the record two copies of the bytes make, each read on its own.
func FuzzSharedInput(f *testing.F) {
	for _, s := range []string{`{"command":"npm test","cwd":"/w"}`, `{"path":"/w/a.go","token":"abc"}`, `"ls -la"`, `null`, `[1,2.50,null]`,
		`{"env":[{"name":"GITHUB_TOKEN","value":"v"}]}`, `{"$redacted":true}`, `{"a":1,"a":2}`, `{"command":"export PGPASSWORD=hunter22"}`,
		`{"content":"` + strings.Repeat("word ", 3000) + `"}`, `{"a":`, `{"\u0041":1}`, `1e400`} {
		f.Add(s, 100)
		f.Add(s, 4000)
	}
	f.Fuzz(func(t *testing.T, raw string, maxField int) {
		l := fieldLog(Options{MaxFieldBytes: 32 + maxField&0xffff})
		mk := func(shared bool) Event {
			in := json.RawMessage(raw)
			args := in
			if !shared {
				args = append(json.RawMessage(nil), raw...)
			}
			return Event{Actor: Actor{ID: "agent:a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c1"}, Input: in,
				Metadata: map[string]any{"session": "s", "toolCall": ToolCall{Kind: "tool-call", ToolCallID: "c1", Tool: "Bash", Arguments: args}}}
		}
		if a, b := lineOrError(l, mk(true)), lineOrError(l, mk(false)); a != b {
			t.Fatalf("input %q read once:\n%s\nread twice:\n%s", raw, a, b)
		}
	})
}
