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
	time.Sleep(300 * time.Millisecond)
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

// TestCreditNoLostWakeup: one taker (tryTake, then take) and one
// giver, with loads around the limits; every take must complete and the
// count must return to zero.
func TestCreditNoLostWakeup(t *testing.T) {
	c := newCredit(load{8, 1000})
	q := make(chan load, 64)
	done := make(chan struct{})
	go func() {
		for l := range q {
			c.give(l)
		}
		close(done)
	}()
	sizes := []load{{1, 10}, {3, 500}, {8, 100}, {1, 5000}, {2, 999}, {9, 1}}
	for i := range 200000 {
		l := sizes[i%len(sizes)]
		if !c.tryTake(l) {
			c.take(l)
		}
		c.mu.Lock()
		over := c.used.msgs > l.msgs && (c.used.msgs > c.max.msgs || c.used.bytes > c.max.bytes)
		c.mu.Unlock()
		if over {
			t.Fatalf("used %+v after taking %+v: over the limit without going alone", c.used, l)
		}
		q <- l
	}
	close(q)
	<-done
	if c.used != (load{}) {
		t.Fatalf("used %+v after all was given back", c.used)
	}
}
