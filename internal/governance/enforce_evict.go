package governance

import (
	"container/list"
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// What the bridge keeps of sessions is bounded, however long it runs and
// however many sessions the IDE opens: it governs at most MaxSessions at
// once, and opening one more forgets the session the IDE used least
// recently (opened or prompted in), with everything kept for it: its cwd
// and roots, its tool calls (stopped ones included), its terminals. To the
// bridge a forgotten session is one the IDE never opened: the agent's
// messages in it are refused (checkOpened), until the IDE loads or resumes
// it again; nothing the agent says opens a session. The IDE's prompt in
// one of the latest MaxSessions forgotten is answered with an error that
// says so. A turn still running in it is cancelled, the person is
// told there, and session.evicted is recorded. Recency follows the IDE
// alone, so the agent cannot choose which session is forgotten, and
// forgetting one only takes permissions away.

// DefaultMaxSessions is how many sessions an Enforcer governs at once when
// EnforceOptions.MaxSessions is zero.
const DefaultMaxSessions = 1024

// maxTerminals bounds the terminals the bridge remembers the IDE creating,
// over all sessions; past it the oldest is forgotten, and the agent's
// later use of it is refused as of a terminal the IDE never created.
const maxTerminals = 4096

// openSessions is the set of sessions the IDE opened and has not closed,
// least recently used first.
type openSessions struct {
	order *list.List // of session ids, least recently used at the front
	at    map[string]*list.Element
}

func newOpenSessions() openSessions {
	return openSessions{order: list.New(), at: map[string]*list.Element{}}
}

// has reports whether sid is open.
func (o *openSessions) has(sid string) bool { return o.at[sid] != nil }

// len returns how many sessions are open.
func (o *openSessions) len() int { return len(o.at) }

// add opens sid as the most recently used session and reports whether it
// was not open before.
func (o *openSessions) add(sid string) bool {
	if e := o.at[sid]; e != nil {
		o.order.MoveToBack(e)
		return false
	}
	o.at[sid] = o.order.PushBack(sid)
	return true
}

// touch makes sid, if open, the most recently used session.
func (o *openSessions) touch(sid string) {
	if e := o.at[sid]; e != nil {
		o.order.MoveToBack(e)
	}
}

// remove closes sid.
func (o *openSessions) remove(sid string) {
	if e := o.at[sid]; e != nil {
		o.order.Remove(e)
		delete(o.at, sid)
	}
}

// oldest returns the least recently used open session.
func (o *openSessions) oldest() (string, bool) {
	e := o.order.Front()
	if e == nil {
		return "", false
	}
	return e.Value.(string), true
}

// maxSessions is the configured bound on open sessions.
func (x *Enforcer) maxSessions() int {
	if x.opts.MaxSessions > 0 {
		return x.opts.MaxSessions
	}
	return DefaultMaxSessions
}

// openSessionLocked records that the IDE opened session sid and reports
// whether it was new. Past the bound the least recently used other session
// is forgotten (reportEvictions tells of it once x.mu is released). x.mu
// held.
func (x *Enforcer) openSessionLocked(sid string) bool {
	if sid == "" {
		return false
	}
	if !x.opened.add(sid) {
		return false
	}
	x.forgotten.remove(sid)
	for x.opened.len() > x.maxSessions() {
		old, _ := x.opened.oldest()
		x.evictions = append(x.evictions, eviction{session: old, running: x.promptPendingLocked(old)})
		x.dropSessionLocked(old)
		// Remembered, as many as are governed, so that the IDE's prompt
		// in it hears why nothing happens.
		x.forgotten.add(old)
		if x.forgotten.len() > x.maxSessions() {
			first, _ := x.forgotten.oldest()
			x.forgotten.remove(first)
		}
	}
	return true
}

// eviction is a session forgotten to bound memory, to be reported.
type eviction struct {
	session string
	running bool // a turn was in progress in it
}

// dropSessionLocked forgets everything kept for session sid. x.mu held.
func (x *Enforcer) dropSessionLocked(sid string) {
	x.opened.remove(sid)
	if s := x.sessions[sid]; s != nil && s.loading > 0 {
		x.loadingN.Add(-int32(s.loading))
	}
	delete(x.sessions, sid)
	x.forgetSessionLocked(sid)
	x.forgetTerminalsLocked(sid)
}

// promptPendingLocked reports whether a session/prompt of session sid
// awaits its response. x.mu held.
func (x *Enforcer) promptPendingLocked(sid string) bool {
	for _, s := range x.prompts {
		if s == sid {
			return true
		}
	}
	return false
}

// reportEvictions records the sessions openSessionLocked forgot, cancels
// the turn running in any of them and tells the person there. x.mu not
// held.
func (x *Enforcer) reportEvictions() {
	x.mu.Lock()
	evs := x.evictions
	x.evictions = nil
	x.mu.Unlock()
	for _, ev := range evs {
		x.log.Info("forgot the least recently used session: too many open", "session", ev.session, "max", x.maxSessions())
		x.append(audit.Event{Actor: actorBridge, Action: "session.evicted", Subject: audit.Subject{Kind: "session", Ref: ev.session},
			Input:    map[string]any{"cause": fmt.Sprintf("more than %d sessions open", x.maxSessions()), "turnCancelled": ev.running},
			Metadata: map[string]any{"session": ev.session}})
		if ev.running {
			if err := x.send.Notify(acpwire.ClientToAgent, "session/cancel", map[string]any{"sessionId": ev.session}); err != nil {
				x.log.Warn("cancelling the turn of a forgotten session", "err", err)
			}
		}
		x.tell(ev.session, fmt.Sprintf("acp-bridge stopped governing this session because more than %d sessions are open; "+
			"the agent can no longer act in it. Load or resume the session to continue.", x.maxSessions()))
	}
}

// rememberTerminalLocked records that the IDE created terminal tid for
// session sid, forgetting the oldest terminal past maxTerminals. x.mu
// held.
func (x *Enforcer) rememberTerminalLocked(sid, tid string) {
	key := terminalKey(sid, tid)
	if x.terminals[key] {
		return
	}
	x.terminals[key] = true
	x.terminalOrder = append(x.terminalOrder, key)
	for len(x.terminals) > maxTerminals && len(x.terminalOrder) > 0 {
		delete(x.terminals, x.terminalOrder[0])
		x.terminalOrder = x.terminalOrder[1:]
	}
	if len(x.terminalOrder) > 2*len(x.terminals)+64 {
		x.compactTerminalsLocked()
	}
}

// forgetTerminalsLocked forgets the terminals of session sid. x.mu held.
func (x *Enforcer) forgetTerminalsLocked(sid string) {
	prefix := sid + "\x00"
	for k := range x.terminals {
		if strings.HasPrefix(k, prefix) {
			delete(x.terminals, k)
		}
	}
	x.compactTerminalsLocked()
}

// compactTerminalsLocked drops the keys of forgotten terminals from
// terminalOrder. x.mu held.
func (x *Enforcer) compactTerminalsLocked() {
	kept := x.terminalOrder[:0]
	for _, k := range x.terminalOrder {
		if x.terminals[k] {
			kept = append(kept, k)
		}
	}
	clear(x.terminalOrder[len(kept):])
	x.terminalOrder = kept
}
