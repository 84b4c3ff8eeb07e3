package acpwire_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestOnAnswered: OnAnswered hears of each request of the IDE's that the
// bridge answers in the agent's place (a middleware's Reply or ReplyError,
// the bridge's own answer to a request no middleware passed on), with the
// response as written, before the IDE reads it; not of a request the
// agent answers, nor of the agent's requests answered in the IDE's place.
func TestOnAnswered(t *testing.T) {
	var mu sync.Mutex
	var heard []string
	b := acpwire.New(acpwire.Options{OnAnswered: func(req *acpwire.Message, resp []byte) {
		mu.Lock()
		heard = append(heard, req.Method+" "+string(resp))
		mu.Unlock()
	}})
	b.Use(acpwire.Middleware(func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			switch m.Method {
			case "x/reply":
				return b.Reply(m, map[string]any{"ok": true})
			case "x/refuse":
				return b.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams, "no"))
			case "x/drop":
				return nil
			}
			return next.Handle(ctx, m)
		})
	}))
	h := newHarnessFor(t, b)
	h.FromClient(`{"jsonrpc":"2.0","id":1,"method":"x/reply"}`)
	h.ClientGets()
	h.FromClient(`{"jsonrpc":"2.0","id":2,"method":"x/refuse"}`)
	h.ClientGets()
	h.FromClient(`{"jsonrpc":"2.0","id":3,"method":"x/drop"}`)
	h.ClientGets()
	h.FromClient(`{"jsonrpc":"2.0","id":4,"method":"x/pass"}`)
	h.AgentGets()
	h.FromAgent(`{"jsonrpc":"2.0","id":4,"result":{}}`)
	h.ClientGets()
	h.FromAgent(`{"jsonrpc":"2.0","id":5,"method":"x/refuse"}`)
	h.AgentGets()
	mu.Lock()
	defer mu.Unlock()
	want := []string{`x/reply {"jsonrpc":"2.0","id":1,"result":{"ok":true}}`, `x/refuse {"jsonrpc":"2.0","id":2,"error":`, `x/drop {"jsonrpc":"2.0","id":3,"error":`}
	if len(heard) != len(want) {
		t.Fatalf("OnAnswered heard %q, want %d answers", heard, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(heard[i], w) {
			t.Errorf("answer %d: heard %s, want %s...", i, heard[i], w)
		}
	}
}
