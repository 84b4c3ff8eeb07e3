package compress

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// nopSender is a Sender that accepts everything and answers Calls with an
// error, for driving the middleware without a bridge.
type nopSender struct{}

func (nopSender) Reply(*acpwire.Message, any) error                 { return nil }
func (nopSender) ReplyError(*acpwire.Message, *acpwire.Error) error { return nil }
func (nopSender) Notify(acpwire.Direction, string, any) error       { return nil }
func (nopSender) Call(context.Context, acpwire.Direction, string, any) (json.RawMessage, error) {
	return nil, acpwire.Errorf(acpwire.CodeInternalError, "no agent")
}
func (nopSender) CallThen(_ context.Context, _ acpwire.Direction, _ string, _ any, then func(json.RawMessage, error) error) error {
	return then(nil, acpwire.Errorf(acpwire.CodeInternalError, "no agent"))
}

// FuzzMiddleware feeds arbitrary params to the pipeline under every method
// it inspects, in both directions: it must never panic, and whatever it
// passes on must be valid JSON.
func FuzzMiddleware(f *testing.F) {
	for _, s := range []string{
		`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c","kind":"edit","status":"completed","locations":[{"path":"/a"}],"content":[{"type":"diff","path":"/a","oldText":null,"newText":"x"}]}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"compact","description":"c"}]}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":190000,"size":200000}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"x","status":"pending","priority":"low"}]}}`,
		`{"sessionId":"s1","prompt":[{"type":"text","text":"/bridge-context"}]}`,
		`{"sessionId":"s1","prompt":[{"type":"resource","resource":{"uri":"file:///x","text":"abc"}}]}`,
		`{"sessionId":7,"update":"x"}`, `{"update":{"content":[1,2]}}`, `[]`, `null`, `"s"`,
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(3))
	}
	methods := []string{"session/update", "session/prompt", "session/new", "session/load", "fs/read_text_file", "terminal/output", "session/cancel"}
	f.Fuzz(func(t *testing.T, params string, pick uint8) {
		if !json.Valid([]byte(params)) {
			return
		}
		_, h, passed := direct(t, 5)
		method := methods[int(pick)%len(methods)]
		for _, dir := range []acpwire.Direction{acpwire.ClientToAgent, acpwire.AgentToClient} {
			for _, raw := range []string{
				`{"jsonrpc":"2.0","method":"` + method + `","params":` + params + `}`,
				`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`,
			} {
				m, err := acpwire.Parse(dir, []byte(raw))
				if err != nil {
					t.Fatal(err)
				}
				_ = h.Handle(context.Background(), m)
			}
		}
		for _, m := range *passed {
			if !json.Valid(m.Raw) {
				t.Fatalf("passed invalid JSON: %s", m.Raw)
			}
		}
	})
}
