package acpwire

import (
	"bufio"
	"context"
	"io"
	"os"
	"testing"
	"time"
)

// harness runs a Bridge over real pipes. The test plays both peers: it
// writes the client's and the agent's lines and reads what each receives.
type harness struct {
	t        *testing.T
	b        *Bridge
	s        *Session
	clientW  *os.File      // the client's messages into the bridge
	agentW   *os.File      // the agent's messages into the bridge
	toClient *bufio.Reader // what the client receives
	toAgent  *bufio.Reader // what the agent receives
	cancel   context.CancelFunc
	timeout  time.Duration // for one read or write; defaults to 10 s
}

func newHarness(t *testing.T, opts Options, mws ...func(*Bridge) Middleware) *harness {
	t.Helper()
	b := New(opts)
	for _, mw := range mws {
		b.Use(mw(b))
	}
	return newHarnessFor(t, b)
}

// newHarnessFor runs b, with its middleware already added, over real pipes.
func newHarnessFor(t *testing.T, b *Bridge) *harness {
	t.Helper()
	checkLeaks(t)
	// Real OS pipes, as between the bridge and its peers.
	cr, cw := osPipe(t)
	ar, aw := osPipe(t)
	tcR, tcW := osPipe(t)
	taR, taW := osPipe(t)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := b.Start(ctx, Endpoint{In: cr, Out: tcW}, Endpoint{In: ar, Out: taW})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, b: b, s: s, clientW: cw, agentW: aw,
		toClient: bufio.NewReaderSize(tcR, 1<<20), toAgent: bufio.NewReaderSize(taR, 1<<20), cancel: cancel}
	t.Cleanup(func() {
		cw.Close()
		aw.Close()
		// Drain so the bridge's writers never block while shutting down.
		go io.Copy(io.Discard, tcR)
		go io.Copy(io.Discard, taR)
		<-s.Done(ClientToAgent)
		<-s.Done(AgentToClient)
		s.Close()
		cancel()
		for _, f := range []*os.File{cr, ar, tcW, taW} {
			f.Close()
		}
	})
	return h
}

func osPipe(t testing.TB) (*os.File, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}

func (h *harness) fromClient(line string) { h.write(h.clientW, line) }
func (h *harness) fromAgent(line string)  { h.write(h.agentW, line) }

func (h *harness) write(w io.Writer, line string) {
	h.t.Helper()
	done := make(chan error, 1)
	go func() { _, err := io.WriteString(w, line+"\n"); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			h.t.Fatalf("writing to bridge: %v", err)
		}
	case <-time.After(h.wait()):
		h.t.Fatal("timed out writing to the bridge")
	}
}

// clientGets returns the next line the client receives.
func (h *harness) clientGets() string { return h.read(h.toClient, "client") }

// agentGets returns the next line the agent receives.
func (h *harness) agentGets() string { return h.read(h.toAgent, "agent") }

func (h *harness) read(r *bufio.Reader, who string) string {
	h.t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := r.ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case x := <-ch:
		if x.err != nil {
			h.t.Fatalf("reading what the %s receives: %v", who, x.err)
		}
		return x.s[:len(x.s)-1]
	case <-time.After(h.wait()):
		h.t.Fatalf("timed out waiting for a message to the %s", who)
		return ""
	}
}

func (h *harness) wait() time.Duration {
	if h.timeout > 0 {
		return h.timeout
	}
	return 10 * time.Second
}
