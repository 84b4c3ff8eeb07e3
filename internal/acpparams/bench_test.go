package acpparams

import (
	"context"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
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
		// As the features meet it: checked strictly by a Bridge, which
		// recorded where its long strings are (Message.KnownStrings).
		checked := checkedByBridge(b, string(parsed.Raw))
		for _, v := range []struct {
			name string
			m    *acpwire.Message
		}{{bc.name, parsed}, {bc.name + "_checked", checked}} {
			b.Run(v.name, func(b *testing.B) {
				b.SetBytes(int64(len(v.m.Params)))
				b.ReportAllocs()
				for b.Loop() {
					m := *v.m
					if _, err := UpdateOf(&m, m.Params); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// checkedByBridge returns line as the middleware of a Bridge receives it
// from the agent, unread by any feature.
func checkedByBridge(b *testing.B, line string) *acpwire.Message {
	seen := make(chan *acpwire.Message, 1)
	br := acpwire.New(acpwire.Options{})
	br.Use(acpwire.Middleware(func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			seen <- m
			return next.Handle(ctx, m)
		})
	}))
	h := acpwiretest.Start(b, br)
	h.FromAgent(line)
	h.ClientGets()
	return <-seen
}
