// Package acpwiretest runs an acpwire.Bridge over real OS pipes for tests:
// the test plays both peers, writing the IDE's and the agent's lines and
// reading what each receives, and the bridge is stopped, and checked for
// goroutines it leaves behind, when the test ends.
package acpwiretest

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/leakcheck"
)

// DefaultTimeout bounds one read or write of a Harness: only a bridge that
// is stuck takes that long. A read ends as soon as its line is there, so
// the bound costs a passing test nothing; 10 s was passed by a bridge that
// was only waiting for a core (go test -count=3 -cpu 1,2 ./... with a load
// average of 60 on 2 cores).
const DefaultTimeout = 60 * time.Second

// Harness is a started Bridge whose peers are the test. Its methods are
// for the test's goroutine, or one goroutine per peer: the IDE's side and
// the agent's side may be driven concurrently, one side from two
// goroutines may not.
type Harness struct {
	t        testing.TB
	session  *acpwire.Session
	clientW  *os.File // the IDE's messages into the bridge
	agentW   *os.File // the agent's messages into the bridge
	toClient *lines   // what the IDE receives
	toAgent  *lines   // what the agent receives
	// Timeout bounds one read or write; zero means DefaultTimeout.
	Timeout time.Duration
	// stop ends the session once (Stop, and the test's clean-up).
	stop func()
}

// lines reads one peer's incoming lines. A read runs on its own goroutine
// so a stuck bridge times out instead of hanging the test.
type lines struct {
	r       *bufio.Reader
	pending chan lineRead // the read in flight, or nil
}

type lineRead struct {
	line string
	err  error
}

// buffered returns the next line if it is whole in the buffer already,
// so reading it cannot block (a stream of thousands of lines reads
// without a goroutine each).
func (l *lines) buffered() (string, bool) {
	if l.pending != nil {
		return "", false
	}
	b, _ := l.r.Peek(l.r.Buffered())
	if bytes.IndexByte(b, '\n') < 0 {
		return "", false
	}
	s, _ := l.r.ReadString('\n')
	return strings.TrimSuffix(s, "\n"), true
}

// next returns the channel the next line arrives on, starting a read if
// none is in flight.
func (l *lines) next() <-chan lineRead {
	if l.pending == nil {
		ch := make(chan lineRead, 1)
		go func() {
			s, err := l.r.ReadString('\n')
			ch <- lineRead{strings.TrimSuffix(s, "\n"), err}
		}()
		l.pending = ch
	}
	return l.pending
}

// Start starts b, with its middleware already added, over real pipes, and
// stops it when the test ends; the test fails if goroutines started
// since Start are still running then.
func Start(t testing.TB, b *acpwire.Bridge) *Harness {
	t.Helper()
	CheckLeaks(t)
	cr, cw := pipe(t)
	ar, aw := pipe(t)
	tcR, tcW := pipe(t)
	taR, taW := pipe(t)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := b.Start(ctx, acpwire.Endpoint{In: cr, Out: tcW}, acpwire.Endpoint{In: ar, Out: taW})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	h := &Harness{t: t, session: s, clientW: cw, agentW: aw,
		toClient: &lines{r: bufio.NewReaderSize(tcR, 1<<20)}, toAgent: &lines{r: bufio.NewReaderSize(taR, 1<<20)}}
	h.stop = sync.OnceFunc(func() {
		// Cancelling first releases a handler still waiting in Call.
		cancel()
		cw.Close()
		aw.Close()
		// Drain so the bridge's writers never block while shutting down.
		go io.Copy(io.Discard, tcR)
		go io.Copy(io.Discard, taR)
		<-s.Done(acpwire.ClientToAgent)
		<-s.Done(acpwire.AgentToClient)
		s.Close()
		for _, f := range []*os.File{cr, ar, tcW, taW} {
			f.Close()
		}
	})
	t.Cleanup(h.stop)
	return h
}

// Stop ends the session as both peers leaving would: their inputs close,
// both directions finish what they hold (each message's fate recorded),
// and the session is closed, its recording flushed. What the peers were
// sent but did not read is discarded. The test's clean-up stops it too.
func (h *Harness) Stop() { h.stop() }

// Session returns the running session.
func (h *Harness) Session() *acpwire.Session { return h.session }

// FromClient sends line (without its newline) as the IDE, in one write; it
// may hold several lines joined by newlines, which then arrive together.
func (h *Harness) FromClient(line string) { h.t.Helper(); h.write(h.clientW, line) }

// FromAgent sends line (without its newline) as the agent, in one write,
// as FromClient does.
func (h *Harness) FromAgent(line string) { h.t.Helper(); h.write(h.agentW, line) }

// ClientGets returns the next line the IDE receives, without its newline.
func (h *Harness) ClientGets() string { h.t.Helper(); return h.read(h.toClient, "IDE") }

// AgentGets returns the next line the agent receives, without its newline.
func (h *Harness) AgentGets() string { h.t.Helper(); return h.read(h.toAgent, "agent") }

func (h *Harness) write(w io.Writer, line string) {
	h.t.Helper()
	done := make(chan error, 1)
	go func() { _, err := io.WriteString(w, line+"\n"); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			h.t.Fatalf("writing to the bridge: %v", err)
		}
	case <-time.After(h.timeout()):
		h.t.Fatalf("timed out after %v writing to the bridge", h.timeout())
	}
}

// Barrier is a notification no feature acts on. One peer sends it to show
// that the other received nothing before it: the bridge handles each
// peer's messages in order, so whatever it forwards or sends on account of
// the earlier ones arrives first. It is an ordering proof, not a pause.
const Barrier = `{"jsonrpc":"2.0","method":"_test/barrier","params":{}}`

// AgentGetsNothingMore fails the test if the agent receives anything
// before a Barrier the IDE sends now.
func (h *Harness) AgentGetsNothingMore() {
	h.t.Helper()
	h.FromClient(Barrier)
	if got := h.AgentGets(); got != Barrier {
		h.t.Fatalf("the agent received %s; want nothing before the barrier", got)
	}
}

// ClientGetsNothingMore fails the test if the IDE receives anything before
// a Barrier the agent sends now.
func (h *Harness) ClientGetsNothingMore() {
	h.t.Helper()
	h.FromAgent(Barrier)
	if got := h.ClientGets(); got != Barrier {
		h.t.Fatalf("the IDE received %s; want nothing before the barrier", got)
	}
}

func (h *Harness) read(l *lines, who string) string {
	h.t.Helper()
	if line, ok := l.buffered(); ok {
		return line
	}
	select {
	case x := <-l.next():
		l.pending = nil
		if x.err != nil {
			h.t.Fatalf("reading what the %s receives: %v", who, x.err)
		}
		return x.line
	case <-time.After(h.timeout()):
		h.t.Fatalf("timed out after %v waiting for a message to the %s", h.timeout(), who)
		return ""
	}
}

func (h *Harness) timeout() time.Duration {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return DefaultTimeout
}

func pipe(t testing.TB) (*os.File, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}

// CheckLeaks fails the test if, once its cleanups have run, goroutines
// started since the call still run (see leakcheck.Check). Start calls it.
func CheckLeaks(t testing.TB) {
	t.Helper()
	leakcheck.Check(t)
}
