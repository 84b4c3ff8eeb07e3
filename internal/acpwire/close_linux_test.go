package acpwire

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestRunReturnsWhileIDEDoesNotRead: the IDE sends a request that a
// middleware answers with more than the IDE's pipe holds, does not read, and
// closes its end. The hang-up watch reports the client side ended; Run shuts
// the agent down and must return (found by review: Session.Close waited for
// the lock the blocked reply write holds).
func TestRunReturnsWhileIDEDoesNotRead(t *testing.T) {
	defer setGrace(200*time.Millisecond, time.Second)()
	agent, err := StartAgent(selfAgent(t, "deaf"))
	if err != nil {
		t.Fatal(err)
	}
	cr, cw := osPipe(t)
	sr, sw := osPipe(t) // sr: the IDE's input, which it does not read
	t.Cleanup(func() { cw.Close(); sr.Close() })
	b := New(Options{})
	b.UseNonRetaining(Middleware(func(next Handler) Handler {
		return HandlerFunc(func(ctx context.Context, m *Message) error {
			if m.Kind == KindRequest && m.Method == "_test/big" {
				return b.Reply(m, map[string]string{"pad": string(bigNote(1 << 20))})
			}
			return next.Handle(ctx, m)
		})
	}))
	done := make(chan error, 1)
	go func() { done <- b.Run(context.Background(), Endpoint{In: cr, Out: sw}, agent) }()
	if _, err := io.WriteString(cw, `{"jsonrpc":"2.0","id":1,"method":"_test/big","params":{}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the reply to start filling the IDE's pipe", func() bool { return unread(t, sr) > 0 })
	waitFor(t, "the bridge to read the request", func() bool { return unread(t, cr) == 0 })
	cw.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v, want nil", err)
		}
	case <-time.After(15 * time.Second):
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		for _, g := range strings.Split(string(buf[:n]), "\n\n") {
			if strings.Contains(g, "Run(") || strings.Contains(g, "Close(") {
				t.Log(g)
			}
		}
		sr.Close() // let it go
		t.Fatal("Run did not return 15 s after the IDE closed its end (agent alive: " +
			map[bool]string{true: "yes", false: "no"}[alive(agent.Pid())] + ")")
	}
}
