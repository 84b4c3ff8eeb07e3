package acpwire_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// panicky is middleware that panics on every x/boom message, before or
// after passing it on.
func panicky(after bool) acpwire.Middleware {
	return func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			if m.Method == "x/boom" {
				if after {
					_ = next.Handle(ctx, m)
				}
				panic("boom")
			}
			return next.Handle(ctx, m)
		})
	}
}

// panicCase is a case of TestMiddlewarePanicContained.
type panicCase struct {
	name       string
	failClosed bool
	after      bool
	line       string
	agentGets  bool   // the message reaches the agent
	clientGets string // substring of what the client gets back, if anything
}

// TestMiddlewarePanicContained: a panic never ends the session. Middleware
// added with Use fails open (the message goes on unchanged); with
// UseFailClosed the message is refused (a request gets an error), unless
// it had been passed on before the panic. Each panic is reported with its
// stack and the message, which the hook may keep: when the middleware
// keeps no messages (UseNonRetaining), the bridge reuses neither that
// message nor its bytes.
func TestMiddlewarePanicContained(t *testing.T) {
	tests := []panicCase{
		{"open request", false, false, `{"jsonrpc":"2.0","id":1,"method":"x/boom"}`, true, ""},
		{"open notification", false, false, `{"jsonrpc":"2.0","method":"x/boom"}`, true, ""},
		{"closed request", true, false, `{"jsonrpc":"2.0","id":2,"method":"x/boom"}`, false, `"id":2,"error":{"code":-32603`},
		{"closed notification", true, false, `{"jsonrpc":"2.0","method":"x/boom"}`, false, ""},
		{"closed after passing on", true, true, `{"jsonrpc":"2.0","id":3,"method":"x/boom"}`, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkPanicContained(t, tt, false) })
		t.Run(tt.name+" non-retaining", func(t *testing.T) { checkPanicContained(t, tt, true) })
	}
}

// checkPanicContained runs tt with the panicking middleware added as
// keeping no messages or as one that may.
func checkPanicContained(t *testing.T, tt panicCase, nonRetaining bool) {
	t.Setenv(acpwire.PoisonBlocksEnv, "1")
	var mu sync.Mutex
	var panics []acpwire.Panic
	b := acpwire.New(acpwire.Options{OnPanic: func(p acpwire.Panic) { mu.Lock(); panics = append(panics, p); mu.Unlock() }})
	switch {
	case tt.failClosed && nonRetaining:
		b.UseFailClosedNonRetaining(panicky(tt.after))
	case tt.failClosed:
		b.UseFailClosed(panicky(tt.after))
	case nonRetaining:
		b.UseNonRetaining(panicky(tt.after))
	default:
		b.Use(panicky(tt.after))
	}
	h := newHarnessFor(t, b)
	h.FromClient(tt.line)
	const marker = `{"jsonrpc":"2.0","method":"marker"}`
	h.FromClient(marker)
	if tt.clientGets != "" {
		if got := h.ClientGets(); !strings.Contains(got, tt.clientGets) {
			t.Fatalf("client got %s, want %s", got, tt.clientGets)
		}
	}
	if tt.agentGets {
		if got := h.AgentGets(); got != tt.line {
			t.Fatalf("agent got %s, want the message unchanged", got)
		}
	}
	if got := h.AgentGets(); got != marker {
		t.Fatalf("agent got %s, want the marker: the session goes on", got)
	}
	for range 3 * 64 { // more than the read blocks a pool keeps
		more := `{"jsonrpc":"2.0","method":"marker","params":{"pad":"` + strings.Repeat("x", 1000) + `"}}`
		h.FromClient(more)
		if got := h.AgentGets(); got != more {
			t.Fatalf("agent got %.80s, want the marker", got)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(panics) != 1 || panics[0].Value != "boom" || !strings.Contains(string(panics[0].Stack), "panicky") ||
		panics[0].FailClosed != tt.failClosed || panics[0].Passed != tt.agentGets {
		t.Fatalf("panics reported: %+v", panics)
	}
	if m := panics[0].Msg; string(m.Raw) != tt.line || m.Method != "x/boom" {
		t.Fatalf("the message the hook kept changed: method %q, %.80s", m.Method, m.Raw)
	}
}

// TestOnionOrder: middleware added first is outermost toward the client:
// it sees the client's messages first and the agent's last.
func TestOnionOrder(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	tag := func(name string) acpwire.Middleware {
		return func(next acpwire.Handler) acpwire.Handler {
			return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
				mu.Lock()
				seen = append(seen, m.Dir.String()+":"+name)
				mu.Unlock()
				return next.Handle(ctx, m)
			})
		}
	}
	b := acpwire.New(acpwire.Options{})
	b.Use(tag("m1"), tag("m2"))
	b.UseNonRetaining(tag("m3"))
	h := newHarnessFor(t, b)
	h.FromClient(`{"jsonrpc":"2.0","method":"a"}`)
	h.AgentGets()
	h.FromAgent(`{"jsonrpc":"2.0","method":"b"}`)
	h.ClientGets()
	mu.Lock()
	defer mu.Unlock()
	want := "client_to_agent:m1 client_to_agent:m2 client_to_agent:m3 agent_to_client:m3 agent_to_client:m2 agent_to_client:m1"
	if got := strings.Join(seen, " "); got != want {
		t.Fatalf("order\n got %s\nwant %s", got, want)
	}
}
