package acpparams

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// BenchmarkUpdateOf measures UpdateOf's first reading of a session/update
// as the features meet it on the wire: a message the bridge parsed, read
// once (the later readers find the reading kept). Each round reads a copy
// of one parsed message, so the parse is not measured. The tool calls are
// shaped as the soak's (internal/soak/mix.go): a tool_call with one
// location, and a tool_call_update completing it with 10 KiB of output.
func BenchmarkUpdateOf(b *testing.B) {
	out := strings.Repeat("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 10<<10/64)
	for _, bc := range []struct{ name, params string }{
		{"tool_call", `{"sessionId":"sess-0001","update":{"sessionUpdate":"tool_call","toolCallId":"call-17","title":"read src/file17.go","kind":"read","status":"in_progress","locations":[{"path":"/work/project/src/file17.go"}]}}`},
		{"tool_call_update", `{"sessionId":"sess-0001","update":{"sessionUpdate":"tool_call_update","toolCallId":"call-17","status":"completed","content":[{"type":"content","content":{"type":"text","text":"` + out + `"}}]}}`},
	} {
		parsed, err := acpwire.Parse(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","method":"session/update","params":`+bc.params+`}`))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(parsed.Params)))
			b.ReportAllocs()
			for b.Loop() {
				m := *parsed
				if _, err := UpdateOf(&m, m.Params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
