package acpwire

import (
	"context"
	"fmt"
	"runtime/debug"
)

// Panic is a panic recovered in a middleware. See Options.OnPanic.
type Panic struct {
	// Msg is the message the middleware was handling, as it received it.
	// The hook may keep Msg.
	Msg *Message
	// Value is what the middleware panicked with.
	Value any
	// Stack is the goroutine's stack where it panicked.
	Stack []byte
	// FailClosed is true for middleware added with UseFailClosed: the
	// message was refused rather than passed on, unless the middleware had
	// passed it on already.
	FailClosed bool
	// Passed is true when the message went on to the peer: the middleware
	// passed it on before it panicked, or it fails open and the bridge
	// passed it on unchanged.
	Passed bool
}

// layer is one middleware as added, with how it fails.
type layer struct {
	mw         Wrapper
	failClosed bool
}

// buildChains nests the middleware as an onion: messages from the client
// go through m1(m2(m3(forward))) and messages from the agent through
// m3(m2(m1(forward))), so the middleware added first is outermost toward
// the client both ways and each one sees the ids and bytes of its own
// side. Each layer is guarded (see guard).
func (b *Bridge) buildChains() {
	fwd := HandlerFunc(b.forward)
	var in, out Handler = fwd, fwd
	for i := len(b.layers) - 1; i >= 0; i-- {
		in = b.guarded(b.layers[i], in)
	}
	for _, l := range b.layers {
		out = b.guarded(l, out)
	}
	b.chains[ClientToAgent], b.chains[AgentToClient] = in, out
}

// guard runs one middleware of one direction's chain and contains its
// panics: the bridge logs the panic with its stack, reports it
// (Options.OnPanic) and settles the message as the middleware would have
// had to: a middleware that fails open has the message passed on
// unchanged, one that fails closed has it refused (a request is answered
// with an error). A message the middleware already passed on stays passed
// on. Each direction has its own guards and handles one message at a time,
// so the guard's state needs no lock.
type guard struct {
	b          *Bridge
	h          Handler // the middleware, wrapping a tracker of next
	next       Handler
	failClosed bool
	passed     bool // the middleware called next for the current message
}

// tracker is the next handler a guarded middleware is given: it notes that
// the middleware passed the message on.
type tracker struct{ g *guard }

func (t tracker) Handle(ctx context.Context, m *Message) error {
	t.g.passed = true
	return t.g.next.Handle(ctx, m)
}

func (b *Bridge) guarded(l layer, next Handler) Handler {
	g := &guard{b: b, next: next, failClosed: l.failClosed}
	g.h = l.mw.Wrap(tracker{g})
	return g
}

// Handle runs the middleware with the panic contained.
func (g *guard) Handle(ctx context.Context, m *Message) (err error) {
	g.passed = false
	defer func() {
		if v := recover(); v != nil {
			err = g.recovered(ctx, m, v, debug.Stack())
		}
	}()
	return g.h.Handle(ctx, m)
}

// recovered settles m after the middleware panicked with v.
func (g *guard) recovered(ctx context.Context, m *Message, v any, stack []byte) error {
	b := g.b
	passed := g.passed
	p := Panic{Msg: m, Value: v, Stack: stack, FailClosed: g.failClosed, Passed: passed}
	var err error
	switch {
	case passed:
	case g.failClosed:
		switch {
		case m.Kind == KindRequest:
			err = Errorf(CodeInternalError, "acp-bridge refused the request: an internal error stopped the check it needs (%v)", v)
		case m.Kind == KindResponse && m.Request != nil:
			// The requester gets an error in the response's place.
			e := Errorf(CodeInternalError, "acp-bridge refused the %s's response: an internal error stopped the check it needs (%v)", peerName(m.Dir), v)
			_ = b.writers[m.Dir].write(errorResponse(m.ID, e), true)
		}
	default:
		p.Passed = true
		g.passed = true
		err = g.next.Handle(ctx, m)
	}
	b.logger.Error("middleware panicked", "kind", m.Kind.String(), "method", m.Method, "id", string(m.ID),
		"failClosed", g.failClosed, "passedOn", p.Passed, "panic", fmt.Sprint(v), "stack", string(stack))
	if b.opts.OnPanic != nil {
		m.handedOut = true // the hook may keep it
		b.opts.OnPanic(p)
	}
	return err
}

// runPreempt gives m to each preempt hook. A hook that panics is logged
// and skipped: reading goes on, and m still waits its turn.
func (b *Bridge) runPreempt(m *Message) {
	for _, fn := range b.preempt {
		func() {
			defer func() {
				if v := recover(); v != nil {
					b.logger.Error("preempt hook panicked", "method", m.Method, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				}
			}()
			fn(m)
		}()
	}
}
