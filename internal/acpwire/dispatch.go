package acpwire

import (
	"context"
	"errors"
	"time"
)

// peerName names the peer that sends in direction dir, for logs and
// errors.
func peerName(dir Direction) string {
	if dir == ClientToAgent {
		return "client"
	}
	return "agent"
}

// preview returns the start of b for a log line.
func preview(b []byte) string {
	const n = 200
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// refuseOversized drops a line over the limit. A request with a readable id
// is answered with an error; a response to a request the bridge forwarded
// is replaced by an error response, so the requester does not wait forever.
func (b *Bridge) refuseOversized(dir Direction, o *oversized) {
	id, isRequest := o.identify()
	b.logger.Error("message over the size limit dropped", "from", peerName(dir), "bytes", o.size, "limit", b.opts.MaxLineSize, "id", string(id))
	if id == nil {
		return
	}
	e := Errorf(CodeInvalidRequest, "message of %d bytes exceeds acp-bridge's limit of %d bytes", o.size, b.opts.MaxLineSize)
	if isRequest {
		_ = b.writers[dir.Reverse()].write(errorResponse(id, e), true)
		return
	}
	// The answer to one of the bridge's own calls: the call gets the error.
	if m, err := Parse(dir, errorResponse(id, e)); err == nil && b.consumeCallResponse(m) {
		return
	}
	b.mu.Lock()
	a := b.awaiting[dir.Reverse()][idKey(id)]
	if a != nil {
		delete(b.awaiting[dir.Reverse()], idKey(id))
		if a.timer != nil {
			a.timer.Stop()
		}
	}
	b.mu.Unlock()
	if a == nil || a.req.state != nil && a.req.state.answered {
		return // the bridge already answered it: the requester reads it as settled
	}
	_ = b.writers[dir].write(errorResponse(id, e), true)
	if b.opts.OnRefused != nil {
		// The requester reads its request as failed: features hear which
		// one, as for a refused response (Refusal.Msg.Request).
		m := &Message{Dir: dir, Kind: KindOther, ID: id, Request: a.req, invalid: e.Message, handedOut: true}
		b.opts.OnRefused(Refusal{Msg: m, Reason: e.Message, Answered: true, Size: o.size})
	}
}

// dispatch routes one message through the middleware chain.
func (b *Bridge) dispatch(ctx context.Context, m *Message, flush bool) {
	if m.Kind == KindResponse {
		if !b.routeResponse(m) {
			return
		}
	}
	if reason := b.refusalReason(m, &b.strictDec[m.Dir]); reason != "" {
		b.refuse(m, reason)
		if flush {
			b.writers[m.Dir].flush()
		}
		return
	}
	switch m.Kind {
	case KindRequest:
		m.state = &requestState{}
	case KindBatch:
		for _, e := range m.Batch {
			if e.Kind == KindResponse {
				b.matchResponse(e)
			}
		}
	}
	w := b.writers[m.Dir]
	w.batching.Store(!flush)
	err := b.chains[m.Dir].Handle(ctx, m)
	if flush {
		w.flush()
	}
	if m.Kind != KindRequest {
		b.recordFate(m)
		switch {
		case errors.Is(err, errPeerGone):
			// The writer said so once, when the peer went.
			b.logger.Debug("not delivered: peer is gone", "kind", m.Kind.String(), "method", m.Method)
		case err != nil:
			b.logger.Warn("middleware error", "kind", m.Kind.String(), "method", m.Method, "err", err)
		}
		return
	}
	// Whatever happens below, a request not passed on gets the bridge's answer.
	defer b.recordFate(m)
	b.mu.Lock()
	st := *m.state
	b.mu.Unlock()
	switch {
	case err != nil && !st.answered:
		var rpcErr *Error
		if !errors.As(err, &rpcErr) {
			rpcErr = Errorf(CodeInternalError, "acp-bridge: %v", err)
		}
		_ = b.ReplyError(m, rpcErr)
	case err != nil:
		b.logger.Warn("middleware error after the request was answered", "method", m.Method, "err", err)
	case !st.forwarded && !st.answered:
		_ = b.ReplyError(m, Errorf(CodeInternalError, "acp-bridge dropped the request"))
	}
}

// routeResponse settles a response before middleware: one to a call of
// the bridge's own is consumed, one to a request the bridge already
// answered or never forwarded is dropped. It returns whether m goes on to
// middleware, linked to its request (m.Request).
func (b *Bridge) routeResponse(m *Message) bool {
	if b.consumeCallResponse(m) {
		b.rec.recordHeld(m.Dir, m.Raw, "consumed", m.Received)
		return false
	}
	if b.ownCallID(m.ID) {
		// A late answer to a call that gave up waiting: it is the
		// bridge's, and means nothing to the other peer.
		b.logger.Debug("dropping a late response to the bridge's own call", "id", string(m.ID))
		b.rec.recordHeld(m.Dir, m.Raw, "consumed", m.Received)
		return false
	}
	if !b.matchResponse(m) {
		b.rec.recordHeld(m.Dir, m.Raw, "dropped", m.Received)
		return false
	}
	if m.Request == nil {
		// The peer never saw a request with this id through the bridge
		// (or it was answered and settled): it would match the answer
		// to nothing, or to a later request that reuses the id.
		b.refuse(m, "response to a request the peer was not asked")
		return false
	}
	return true
}

// matchResponse links a response to the request it answers. It returns false
// if the response must be dropped because the bridge already answered.
func (b *Bridge) matchResponse(m *Message) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	key := idKey(m.ID)
	a := b.awaiting[m.Dir.Reverse()][key]
	if a == nil {
		return true // unknown id: forward untouched
	}
	delete(b.awaiting[m.Dir.Reverse()], key)
	if a.timer != nil {
		a.timer.Stop()
	}
	m.Request = a.req
	if a.req.state != nil && a.req.state.answered {
		b.logger.Debug("dropping response to a request the bridge already answered", "method", a.req.Method, "id", key)
		return false
	}
	return true
}

// forward is the end of the middleware chain: it writes m toward its peer.
func (b *Bridge) forward(_ context.Context, m *Message) error {
	if m.IsNotification("$/cancel_request") && !b.cancelsForwarded(m) {
		b.refuse(m, "cancellation of a request the peer was not sent, or that the bridge answered")
		m.original().fate = fateRefused
		return nil
	}
	if m.Kind == KindRequest {
		b.track(m)
	}
	if m.Kind == KindBatch {
		for _, e := range m.Batch {
			if e.Kind == KindRequest {
				b.track(e)
			}
		}
	}
	if m.Original == nil {
		m.fate = fateWritten
	} else if m.Original.fate == fateUnknown {
		m.Original.fate = fateReplaced
	}
	if o := m.original(); o.onPassed != nil {
		f := o.onPassed
		o.onPassed = nil
		f()
	}
	w := b.writers[m.Dir]
	return w.write(m.Raw, !w.batching.Load())
}

// cancelsForwarded reports whether m, a $/cancel_request, names a request
// the bridge forwarded in m's direction and that still waits for its
// response: only then has the peer seen the request it cancels.
func (b *Bridge) cancelsForwarded(m *Message) bool {
	id, ok := m.Get("params", "requestId")
	if !ok {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.awaiting[m.Dir][idKey(id)]
	return a != nil && (a.req.state == nil || !a.req.state.answered)
}

// recordFate adds a message the bridge received but did not pass on with its
// own bytes to the recording, saying what became of it instead: "replaced"
// (a changed copy was sent and is recorded as sent), "answered" (a request
// the bridge answered itself) or "dropped". It runs once the
// middleware chain has returned, which is when Handler requires a message's
// fate to be settled.
func (b *Bridge) recordFate(m *Message) {
	if b.rec == nil || m.fate == fateWritten || m.fate == fateRefused {
		return
	}
	held := "dropped"
	switch {
	case m.fate == fateReplaced:
		held = "replaced"
	case m.Kind == KindRequest:
		held = "answered"
	}
	b.rec.recordHeld(m.Dir, m.Raw, held, m.Received)
}

// track records a request being forwarded so its response can be matched.
func (b *Bridge) track(m *Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if m.state == nil {
		m.state = &requestState{}
	}
	if m.state.answered {
		return
	}
	m.state.forwarded = true
	key := idKey(m.ID)
	if prev := b.awaiting[m.Dir][key]; prev != nil {
		b.logger.Warn("peer reused the id of a request still pending", "from", peerName(m.Dir), "id", key)
	}
	a := &awaiting{req: m}
	if m.Dir == ClientToAgent && m.Method == "initialize" && b.opts.InitializeTimeout > 0 {
		a.timer = time.AfterFunc(b.opts.InitializeTimeout, func() {
			_ = b.ReplyError(m, Errorf(CodeInternalError, "agent did not answer initialize within %s", b.opts.InitializeTimeout))
		})
	}
	b.awaiting[m.Dir][key] = a
}
