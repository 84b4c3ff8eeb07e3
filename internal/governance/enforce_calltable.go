package governance

import (
	"slices"
	"strings"
)

// The bridge keeps the state of every tool call the agent has open, in
// one table over all sessions, bounded in number (maxOpenCalls) and in
// what the calls hold (maxKeptTotal): past either the oldest call is
// forgotten and judged afresh on whatever it says next, while a call the
// bridge stopped stays stopped (maxStopped of them).

// callKey is the key of a tool call in Enforcer.calls.
func callKey(sid, id string) string { return sid + "\x00" + id }

// callLocked returns the state of a tool call, creating it, or nil when
// the bridge stopped that call and it has ended (or stopped so many calls
// that it takes on no new ones, see maxStopped). x.mu held.
func (x *Enforcer) callLocked(sid, id string) *callState {
	key := callKey(sid, id)
	if x.stopped[key] {
		return nil
	}
	c := x.calls[key]
	if c == nil && len(x.stopped) >= maxStopped {
		return nil
	}
	if c == nil {
		c = &callState{session: sid, id: id}
		x.calls[key] = c
		if len(x.order) > 2*len(x.calls)+64 {
			x.order = slices.DeleteFunc(x.order, func(k string) bool { return x.calls[k] == nil })
		}
		x.order = append(x.order, key)
	}
	return c
}

// accountLocked counts c's kept state again after a change, and forgets
// the oldest other calls while too much is kept. x.mu held.
func (x *Enforcer) accountLocked(c *callState) {
	n := c.size()
	x.keptTotal += n - c.kept
	c.kept = n
	for (len(x.calls) > maxOpenCalls || x.keptTotal > maxKeptTotal) && len(x.calls) > 1 && len(x.order) > 0 {
		key := x.order[0]
		x.order = x.order[1:]
		old := x.calls[key]
		if old == nil {
			continue
		}
		if old == c {
			x.order = append(x.order, key)
			continue
		}
		// An evicted call is judged afresh on whatever it says next, as
		// a new one; a stopped one stays stopped.
		x.forgetLocked(old)
		if old.blocked {
			x.stopped[key] = true
		}
		x.log.Debug("forgot an open tool call: too many open or too much kept", "session", old.session, "toolCallId", old.id)
	}
}

// forgetLocked frees the state of a call that ended. A call the bridge
// stopped leaves its key behind, so that nothing more of it reaches the
// IDE; the session's end frees that. x.mu held.
func (x *Enforcer) forgetLocked(c *callState) {
	key := callKey(c.session, c.id)
	if x.calls[key] == c {
		delete(x.calls, key)
		x.keptTotal -= c.kept
	}
	if c.blocked {
		x.stopped[key] = true
	}
}

// forgetSessionLocked frees the state of every call of session sid. x.mu
// held.
func (x *Enforcer) forgetSessionLocked(sid string) {
	prefix := sid + "\x00"
	for k, c := range x.calls {
		if strings.HasPrefix(k, prefix) {
			delete(x.calls, k)
			x.keptTotal -= c.kept
		}
	}
	for k := range x.stopped {
		if strings.HasPrefix(k, prefix) {
			delete(x.stopped, k)
		}
	}
}
