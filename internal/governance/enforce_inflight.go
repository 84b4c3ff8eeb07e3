package governance

import (
	"bytes"
	"context"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// The Enforcer tells the engine what the agent has asked the IDE to write
// or run that may still change files (inflight.go): an fs/write_text_file
// from its decision to the IDE's answer, a terminal from its decision
// to its end as the bridge sees it.

// flightKey is the key of the agent's request m (or of the request m
// answers) among the requests in flight: the request's id as the agent
// wrote it. An answer is keyed by the request the bridge matched it to,
// never by its own id: the IDE writes the id in its own spelling (the
// TypeScript SDK answers 10.0 as 10 and "\u0061" as "a"), so keyed by its
// own id the answer would leave its request in flight for good, or end
// another request the agent spelled so. It starts with the one NUL it
// holds (no JSON id holds a raw NUL), where a created terminal's key
// (terminalKey) holds one after its session id, which is never empty: a
// session "req" and a terminal "1" make no request's key.
func flightKey(m *acpwire.Message) string {
	if m.Kind == acpwire.KindResponse && m.Request != nil {
		m = m.Request
	}
	return "\x00" + string(bytes.TrimSpace(m.ID))
}

// flight returns the engine's record of what is in flight, nil without an
// engine (nothing is protected then).
func (x *Enforcer) flight() *inFlight {
	if x.engine == nil {
		return nil
	}
	return &x.engine.flight
}

// flightWritePath is the file an fs/write_text_file for path names: an
// absolute path as the IDE opens it (not cleaned: "link/.." is where the
// kernel takes it); a relative one read against the session's directory
// cwd.
func flightWritePath(path, cwd string) string {
	return joinRaw(cwd, path)
}

// flightStart records the agent's fs/write_text_file or terminal/create m
// as in flight: a write of content to path, named what in the user's
// words, or the terminal term (terminal). It returns the handler that forwards m, and a function
// to call once m's handling is over, which forgets m unless it was
// forwarded. ok is false when the bridge cannot keep one more.
func (x *Enforcer) flightStart(m *acpwire.Message, terminal bool, term flightTerm, path, content, what string, next acpwire.Handler) (acpwire.Handler, func(), bool) {
	f := x.flight()
	if f == nil {
		return next, func() {}, true
	}
	key := flightKey(m)
	if terminal {
		if !f.addTerminal(key, term) {
			return next, func() {}, false
		}
	} else if !f.addWrite(key, path, content, what) {
		return next, func() {}, false
	}
	forwarded := false
	fwd := acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
		forwarded = true // before the IDE can answer
		return next.Handle(ctx, m)
	})
	done := func() {
		if forwarded {
			return
		}
		if terminal {
			f.terminalEnded(key)
		} else {
			f.writeDone(key, false)
		}
	}
	return fwd, done, true
}

// flightRefusal is the decision refusing a write or terminal the bridge
// cannot keep track of.
func flightRefusal(terminal bool) Decision {
	what := fmt.Sprintf("%d writes", maxFlightWrites)
	if terminal {
		what = fmt.Sprintf("%d terminals", maxFlightTerminals)
	}
	return Decision{Value: Deny, Ref: "in-flight-limit", Rule: "the bridge keeps track of what the IDE may still be writing or running",
		Reason: fmt.Sprintf("the IDE has not yet finished %s (or %d MiB of writes) the agent asked for; this can be asked again once some have finished", what, maxFlightBytes>>20)}
}

// onWriteAnswered hears the IDE's answer to an fs/write_text_file.
func (x *Enforcer) onWriteAnswered(m *acpwire.Message) {
	if f := x.flight(); f != nil && m.Dir == acpwire.ClientToAgent {
		_, failed := m.Get("error")
		f.writeDone(flightKey(m), !failed)
	}
}

// onTerminalAnswered hears the IDE's answer to a terminal/create,
// terminal/wait_for_exit, terminal/output or terminal/release: a
// terminal created, one that never started, and one that has ended (the
// answer to wait_for_exit or release, an output answer with an
// exitStatus).
func (x *Enforcer) onTerminalAnswered(m *acpwire.Message) {
	f := x.flight()
	if f == nil || m.Dir != acpwire.ClientToAgent || m.Request == nil {
		return
	}
	_, failed := m.Get("error")
	if m.Request.Method == "terminal/create" {
		tid, _ := m.GetString("result", "terminalId")
		sid, _ := m.Request.GetString("params", "sessionId")
		if failed || tid == "" {
			f.terminalCreated(flightKey(m), "")
			return
		}
		f.terminalCreated(flightKey(m), terminalKey(sid, tid))
		return
	}
	if failed {
		return
	}
	if m.Request.Method == "terminal/output" {
		if st, ok := m.Get("result", "exitStatus"); !ok || string(bytes.TrimSpace(st)) == "null" {
			return
		}
	}
	sid, _ := m.Request.GetString("params", "sessionId")
	tid, _ := m.Request.GetString("params", "terminalId")
	f.terminalEnded(terminalKey(sid, tid))
}

// refuseFlight refuses m, a write or terminal the bridge cannot keep
// track of, and records the refusal.
func (x *Enforcer) refuseFlight(m *acpwire.Message, sid string, terminal bool) error {
	d := flightRefusal(terminal)
	x.refuseMessage(m, sid, d)
	x.tell(sid, fmt.Sprintf("acp-bridge blocked a %s: %s.", m.Method, d.Reason))
	return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge policy: %s", d.Reason).WithData(denialData(d)))
}
