package acpwire_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestPoisonCatchesRetention holds each way of adding middleware to its
// contract on reading blocks: a middleware that keeps a slice of a
// forwarded notification's bytes, or the message itself (as a careless
// middleware would), finds them poisoned once later traffic has gone through when every layer was
// added as keeping nothing (UseNonRetaining, UseFailClosedNonRetaining:
// their tests can catch such a middleware), and finds them intact when any
// layer was added as one that may keep messages (Use, UseFailClosed: the
// bridge then reads into fresh blocks).
func TestPoisonCatchesRetention(t *testing.T) {
	add := map[string]func(b *acpwire.Bridge, mw acpwire.Middleware){
		"Use":                       func(b *acpwire.Bridge, mw acpwire.Middleware) { b.Use(mw) },
		"UseFailClosed":             func(b *acpwire.Bridge, mw acpwire.Middleware) { b.UseFailClosed(mw) },
		"UseNonRetaining":           func(b *acpwire.Bridge, mw acpwire.Middleware) { b.UseNonRetaining(mw) },
		"UseFailClosedNonRetaining": func(b *acpwire.Bridge, mw acpwire.Middleware) { b.UseFailClosedNonRetaining(mw) },
	}
	pass := acpwire.Middleware(func(next acpwire.Handler) acpwire.Handler { return next })
	cases := []struct {
		name     string
		keeper   string // how the middleware that keeps bytes is added
		other    string // how a second, passing middleware is added ("": none)
		poisoned bool
	}{
		{name: "non-retaining", keeper: "UseNonRetaining", poisoned: true},
		{name: "fail-closed non-retaining", keeper: "UseFailClosedNonRetaining", poisoned: true},
		{name: "both non-retaining", keeper: "UseFailClosedNonRetaining", other: "UseNonRetaining", poisoned: true},
		{name: "retaining", keeper: "Use"},
		{name: "fail-closed retaining", keeper: "UseFailClosed"},
		{name: "non-retaining beside retaining", keeper: "UseFailClosedNonRetaining", other: "Use"},
		{name: "non-retaining beside fail-closed retaining", keeper: "UseNonRetaining", other: "UseFailClosed"},
	}
	const first = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"the first"}}}}`
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(acpwire.PoisonBlocksEnv, "1")
			b := acpwire.New(acpwire.Options{})
			var mu sync.Mutex
			var kept []byte              // guarded by mu
			var keptMsg *acpwire.Message // guarded by mu
			keeper := acpwire.Middleware(func(next acpwire.Handler) acpwire.Handler {
				return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
					mu.Lock()
					if kept == nil {
						kept, keptMsg = m.Raw, m // the retentions under test
					}
					mu.Unlock()
					return next.Handle(ctx, m)
				})
			})
			add[c.keeper](b, keeper)
			if c.other != "" {
				add[c.other](b, pass)
			}
			h := newHarnessFor(t, b)
			h.FromAgent(first)
			if got := h.ClientGets(); got != first {
				t.Fatalf("client got %s", got)
			}
			for i := range 3 * 64 {
				line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d %s"}}}}`, i, strings.Repeat("x", 1000))
				h.FromAgent(line)
				if got := h.ClientGets(); got != line {
					t.Fatalf("message %d changed in the bridge: %.80s", i, got)
				}
			}
			mu.Lock()
			got := string(kept)
			gotMsg, gotMethod := string(keptMsg.Raw), keptMsg.Method
			mu.Unlock()
			switch {
			case c.poisoned && got == first:
				t.Errorf("the kept bytes are intact: the block of a message that only non-retaining middleware handled was not poisoned and read into again")
			case c.poisoned && !strings.Contains(got, "####"):
				t.Errorf("the kept bytes changed but hold no poison: %.80s", got)
			case !c.poisoned && got != first:
				t.Errorf("the kept bytes changed although a middleware may keep messages: %.80s", got)
			}
			switch {
			case c.poisoned && (gotMsg == first || gotMethod == "session/update"):
				t.Errorf("the kept message is intact (method %q): a message only non-retaining middleware handled was not poisoned", gotMethod)
			case c.poisoned && !strings.Contains(gotMsg, "####"):
				t.Errorf("the kept message changed but holds no poison: %.80s", gotMsg)
			case !c.poisoned && (gotMsg != first || gotMethod != "session/update"):
				t.Errorf("the kept message changed although a middleware may keep messages: method %q, %.80s", gotMethod, gotMsg)
			}
		})
	}
}
