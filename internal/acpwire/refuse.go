package acpwire

import (
	"bytes"
	"fmt"
	"unicode"
)

// Refusal is a message the bridge kept from its peer before any middleware
// saw it, because the peers could read it differently from the bridge (or
// not as JSON-RPC at all), or because it refers to a request the peer
// never saw. See Options.OnRefused.
type Refusal struct {
	// Msg is the message as received. For a line that is not JSON, Msg.Raw
	// is the line and Msg.Kind is KindOther. When the bridge answered a
	// request in the peer's place because its response was refused,
	// Msg.Request is that request: the requester reads it as ended. The
	// hook may keep Msg.
	Msg *Message
	// Reason says why, in words a user can read.
	Reason string
	// Answered is true when the bridge sent an error response in the
	// message's place: to the sender of a refused request, or to the peer
	// waiting for a refused response.
	Answered bool
	// Size is the line's length in bytes when it was over the size limit;
	// then Msg holds only its id (and Msg.Request), not its bytes.
	// Otherwise Size is 0 and Msg.Raw is the line.
	Size int
}

// refuse keeps m from its peer, answers whoever waits on it with an error,
// logs, records and reports it. It runs on m's direction's forwarding loop,
// in m's turn.
func (b *Bridge) refuse(m *Message, reason string) {
	answered := false
	switch {
	case m.Kind == KindBatch:
		answered = b.refuseBatch(m)
	case m.Kind == KindRequest || m.env&envMethod != 0:
		answered = b.answerRefusedRequest(m, m.ID, reason)
	default:
		answered = b.answerRefusedResponse(m, reason)
	}
	b.logger.Warn("message refused; not forwarded", "from", peerName(m.Dir), "kind", m.Kind.String(),
		"method", m.Method, "id", string(m.ID), "reason", reason, "answered", answered, "line", preview(m.Raw))
	if !m.notJSON {
		b.rec.recordHeld(m.Dir, m.Raw, "refused", m.Received)
	}
	if b.opts.OnRefused != nil {
		m.handedOut = true // the hook may keep it
		b.opts.OnRefused(Refusal{Msg: m, Reason: reason, Answered: answered})
	}
}

// answerRefusedRequest answers a refused request (or a line that would be
// one for a peer) with -32600, if it carries an id the sender can match.
func (b *Bridge) answerRefusedRequest(m *Message, id []byte, reason string) bool {
	if !readableID(id) && string(id) != "null" {
		return false
	}
	e := Errorf(CodeInvalidRequest, "acp-bridge refused the request: %s", reason)
	return b.writers[m.Dir.Reverse()].write(errorResponse(id, e), true) == nil
}

// answerRefusedResponse gives the peer waiting for a refused response an
// error in its place, so it does not wait forever.
func (b *Bridge) answerRefusedResponse(m *Message, reason string) bool {
	if m.Request == nil {
		if !readableID(m.ID) && string(m.ID) != "null" {
			return false
		}
		b.mu.Lock()
		key := idKey(m.ID)
		a := b.awaiting[m.Dir.Reverse()][key]
		if a != nil {
			delete(b.awaiting[m.Dir.Reverse()], key)
			if a.timer != nil {
				a.timer.Stop()
			}
		}
		b.mu.Unlock()
		if a == nil || (a.req.state != nil && a.req.state.answered) {
			return false
		}
		m.Request = a.req
	}
	e := Errorf(CodeInternalError, "acp-bridge refused the %s's response: %s", peerName(m.Dir), reason)
	return b.writers[m.Dir].write(errorResponse(m.ID, e), true) == nil
}

// refuseBatch answers each request in a refused batch, and each request a
// response in it was meant for, with an error.
func (b *Bridge) refuseBatch(m *Message) bool {
	const reason = "JSON-RPC batches are not supported"
	answered := false
	for _, e := range m.Batch {
		if e == nil {
			continue
		}
		e.Received = m.Received
		if e.Kind == KindRequest || e.env&envMethod != 0 {
			answered = b.answerRefusedRequest(e, e.ID, reason) || answered
		} else if e.env&envID != 0 {
			answered = b.answerRefusedResponse(e, reason) || answered
		}
	}
	return answered
}

// readableID reports whether id is a string or a number: an id its sender
// can match an error response to.
func readableID(id []byte) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9')
}

// notJSONMessage wraps a line that is not JSON for refusal. A peer that
// trims white space the way JavaScript's String.prototype.trim does (the
// TypeScript SDK does, and its TextDecoder drops a leading byte order
// mark) may still read it as a request: then its id is kept, so the sender
// gets an answer.
func notJSONMessage(dir Direction, line []byte) *Message {
	m := &Message{Dir: dir, Raw: line, notJSON: true, invalid: "not valid JSON"}
	trimmed := jsTrim(line)
	if len(trimmed) == len(line) {
		return m
	}
	if p, ok := parse(dir, trimmed); ok && p.env&envMethod != 0 {
		m.ID, m.env = p.ID, p.env
		m.invalid = "characters before or after the JSON value that JSON does not allow (a byte order mark or non-JSON white space)"
	}
	return m
}

// jsTrim removes what JavaScript's trim removes from both ends of line
// (Unicode white space, line terminators and U+FEFF), and a leading UTF-8
// byte order mark.
func jsTrim(line []byte) []byte {
	return bytes.TrimFunc(line, func(r rune) bool {
		return r == '\uFEFF' || r == '\v' || r == '\f' || unicode.IsSpace(r) || unicode.Is(unicode.Zs, r)
	})
}

// refusalReason returns why m must be refused before any middleware sees
// it, or "", and marks m checked strictly (CheckedStrictly) when its whole
// check passed. It runs on m's direction's forwarding loop: d is that
// direction's strict decoder.
func (b *Bridge) refusalReason(m *Message, d *strictDecoder) string {
	switch m.Kind {
	case KindOther:
		return m.invalid
	case KindBatch:
		return "JSON-RPC batches are not supported"
	case KindRequest:
		if b.awaitingID(m.Dir, m.ID) {
			return reusedIDReason
		}
		if b.ownCallKey(m.ID) {
			return ownIDReason
		}
	}
	if m.chunk || !b.strict.applies(m) {
		// A text chunk was checked while it was parsed: most of the
		// traffic, it is spared the lookup too.
		return ""
	}
	// m was parsed: its bytes are valid JSON (see checkParsed), and facts
	// says what parse learnt of its strings while m is intact.
	known, err := d.checkParsedHint(m.Raw, m.parsedFacts())
	if err != nil {
		return fmt.Sprintf("%s is not strict JSON: %v", describe(m), err)
	}
	m.strict, m.known = true, known
	return ""
}

// reusedIDReason is why a request reusing the id of one still waiting for
// its response is refused: the peer answers both under that id, and the
// bridge, matching answers to requests by id, would take the first answer
// for the second request (a person's allow of one permission request for
// an allow of another).
const reusedIDReason = "its id is the id of a request still waiting for its response, so the answers to the two could not be told apart"

// ownIDReason is why a peer's request under an id of the bridge's own
// calls is refused: the peer it goes to would answer it under that id, and
// the answer could be taken for the answer to the bridge's own question (a
// person's allow of a harmless request for an allow of the bridge's). A
// peer learns the ids from the calls the bridge makes to it.
const ownIDReason = "its id is one of the bridge's own requests, so the answer to it could be taken for the answer to the bridge's"

// awaitingID reports whether a request the bridge forwarded in direction
// dir under id still waits for its response. Requests are handled in
// order, one at a time per direction, so one a middleware holds (while it
// asks the person) has been forwarded or answered before the next is
// checked.
func (b *Bridge) awaitingID(dir Direction, id []byte) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.awaiting[dir][idKey(id)] != nil
}

// describe names a message for a user: "fs/read_text_file request",
// "response to session/new".
func describe(m *Message) string {
	if m.Kind == KindResponse {
		if m.Request != nil {
			return "response to " + m.Request.Method
		}
		return "response"
	}
	return fmt.Sprintf("%s %s", m.Method, m.Kind)
}
