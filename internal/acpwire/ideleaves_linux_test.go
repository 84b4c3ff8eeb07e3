package acpwire

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/leakcheck"
)

// pipesSession starts b between four OS pipes. Nobody reads what the
// agent receives (agentIn) or what the client receives (clientIn) unless
// the test does. cleanup unblocks everything.
func pipesSession(t *testing.T, b *Bridge) (s *Session, cr, cw, clientIn, agentIn *os.File) {
	t.Helper()
	leakcheck.Check(t)
	cr, cw = osPipe(t)
	ar, aw := osPipe(t)
	tcR, tcW := osPipe(t)
	taR, taW := osPipe(t)
	s, err := b.Start(context.Background(), Endpoint{In: cr, Out: tcW}, Endpoint{In: ar, Out: taW})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cw.Close()
		aw.Close()
		taR.Close() // writes to the agent fail: nothing stays blocked
		tcR.Close()
		<-s.Done(ClientToAgent)
		<-s.Done(AgentToClient)
		s.Close()
		for _, f := range []*os.File{cr, ar, tcW, taW} {
			f.Close()
		}
	})
	return s, cr, cw, tcR, taR
}

func bigNote(n int) []byte {
	return []byte(`{"jsonrpc":"2.0","method":"_test/big","params":{"pad":"` + strings.Repeat("p", n) + `"}}`)
}

func expectClientEnded(t *testing.T, s *Session, within time.Duration) {
	t.Helper()
	select {
	case e := <-s.Ended():
		if e.Side != ClientToAgent {
			t.Fatalf("ended %v, want the client side", e)
		}
	case <-time.After(within):
		t.Fatalf("the client closed its end, but no Ended within %v: the client->agent reader is blocked", within)
	}
}

// TestIDELeavesWhileAnotherWriteWaits: while another goroutine (the bridge's
// own Send/Notify/Call, or a middleware of the agent's direction replying
// to the agent) is blocked writing to an agent that does not read, the
// forwarding loop toward the agent is idle, so a lone small message from
// the IDE may be dispatched by the reader. It must not wait for the other
// write (found by review: writer.fits waited on the writer's lock), and
// the IDE closing its end must be noticed.
func TestIDELeavesWhileAnotherWriteWaits(t *testing.T) {
	b := New(Options{})
	s, cr, cw, clientIn, agentIn := pipesSession(t, b)
	go io.Copy(io.Discard, clientIn)
	sent := make(chan error, 1)
	go func() { sent <- b.Send(ClientToAgent, bigNote(256<<10)) }() // more than the 64 KiB pipe
	waitFor(t, "the Send to start writing to the agent", func() bool { return unread(t, agentIn) > 0 })
	select {
	case err := <-sent:
		t.Fatalf("Send returned %v; want it blocked on the full pipe", err)
	default:
	}
	if _, err := io.WriteString(cw, `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the bridge to read the cancel", func() bool { return unread(t, cr) == 0 })
	cw.Close()
	expectClientEnded(t, s, 2*time.Second)
}

// TestIDELeavesWhileReplyToItWaits: a middleware (as manifest.Mask or the
// adapters do) answers a client request itself. Dispatched by the reader,
// the reply is written by the reader; while the IDE is not reading its
// input (its pipe full), the reader waits in that write. The IDE closing
// its end must still be noticed (found by review: it was not).
func TestIDELeavesWhileReplyToItWaits(t *testing.T) {
	b := New(Options{})
	b.UseNonRetaining(Middleware(func(next Handler) Handler {
		return HandlerFunc(func(ctx context.Context, m *Message) error {
			if m.Kind == KindRequest && m.Method == "session/load" {
				return b.ReplyError(m, Errorf(CodeMethodNotFound, "refused by manifest"))
			}
			return next.Handle(ctx, m)
		})
	}))
	s, cr, cw, clientIn, agentIn := pipesSession(t, b)
	go io.Copy(io.Discard, agentIn)
	// The IDE is busy and does not read its input for a while: fill its pipe.
	filled := make(chan error, 1)
	go func() { filled <- b.Send(AgentToClient, bigNote(256<<10)) }()
	waitFor(t, "the Send to start writing to the IDE", func() bool { return unread(t, clientIn) > 0 })
	if _, err := io.WriteString(cw, `{"jsonrpc":"2.0","id":7,"method":"session/load","params":{"sessionId":"s"}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the bridge to read the request", func() bool { return unread(t, cr) == 0 })
	cw.Close()
	expectClientEnded(t, s, 2*time.Second)
}

// TestIDELeavesFloodThenAgentReads: the IDE floods an agent that is busy,
// until the bridge stops reading, and closes its end; the hang-up watch
// reports the end while messages still wait. The agent, let go only then,
// reads within the grace periods: it must still get every byte the IDE
// sent.
func TestIDELeavesFloodThenAgentReads(t *testing.T) {
	defer setGrace(2*time.Second, 2*time.Second)()
	out := filepath.Join(t.TempDir(), "got")
	cmd, release := heldAgent(t, out)
	var logs syncBuffer
	_, cw, _, done := bridgeAgentWith(t, cmd, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	msg := `{"jsonrpc":"2.0","method":"_test/note","params":{"pad":"` + strings.Repeat("p", 1000) + `"}}` + "\n"
	sent := floodUntilHeld(t, cw, msg, time.Second, 64<<20)
	cw.Close()
	t.Logf("IDE sent %d bytes and closed", sent)
	waitFor(t, "the hang-up watch to see the IDE leave", func() bool {
		return strings.Contains(logs.String(), "client closed its end while the bridge could not read it")
	})
	release()
	agentGotAll(t, done, out, sent)
}

// TestPeerGoneLoggedOnce: once the agent's input is closed, each message
// still on its way to it is dropped; the log says so once, not once per
// message (a flood of warnings into a stderr nobody reads would block the
// bridge in its logging).
func TestPeerGoneLoggedOnce(t *testing.T) {
	var logs syncBuffer
	b := New(Options{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	s, _, cw, _, agentIn := pipesSession(t, b)
	agentIn.Close() // the agent is gone: writes to it fail
	note := `{"jsonrpc":"2.0","method":"_test/note","params":{}}` + "\n"
	if _, err := io.WriteString(cw, strings.Repeat(note, 500)); err != nil {
		t.Fatal(err)
	}
	cw.Close()
	<-s.Done(ClientToAgent)
	lines := strings.Count(logs.String(), "\n")
	if lines == 0 || lines > 2 {
		t.Fatalf("%d warning lines for 500 messages to a gone agent, want 1 or 2:\n%.2000s", lines, logs.String())
	}
}
