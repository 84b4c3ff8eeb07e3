package compress

import (
	"os"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// heldOffload is an offload written to the cache whose message, carrying
// its reference in place of the content, has not been passed on yet. The
// middleware between the pipeline and the peer (governance toward the
// IDE, the adapters toward the agent) may still drop that message: only
// once it reached the peer is the offload recorded (the session's record,
// the compression log and the audit log), so no record says a peer got a
// reference it never got.
type heldOffload struct {
	s        *session
	path     string // the cached copy, absolute
	resolved string // path with its symlinks resolved, "" if it could not be
	bytes    int    // the content's size, taken from the run's budget
	note     string // the session record's note: the source and the reference
	event    Event  // the TIER_1 event
}

// recordWhenPassed arranges for the offloads held for m to be recorded as
// m (or its replacement) is written toward its peer, before the peer can
// act on the reference: each is noted in the session's record and logged
// as an event. Call it before next.Handle, and settleOffloads after.
func (p *Pipeline) recordWhenPassed(m *acpwire.Message, held []heldOffload) {
	if len(held) == 0 {
		return
	}
	m.WhenPassed(func() {
		for _, h := range held {
			h.s.mu.Lock()
			h.s.rec.Note(h.event.Time, "Tool", h.note)
			h.s.mu.Unlock()
			p.events.Add(h.event)
		}
	})
}

// settleOffloads undoes the offloads held for m when the layers past the
// pipeline did not pass m on (or it never reached next.Handle): no record
// is made, the session forgets each file and the file is removed, as
// nothing refers to it. When m was passed on, recordWhenPassed recorded
// them as it went out.
func (p *Pipeline) settleOffloads(m *acpwire.Message, held []heldOffload) {
	if len(held) == 0 || m.Passed() {
		return
	}
	for _, h := range held {
		p.discardOffload(h)
		p.logger.Debug("tier 1 offload not recorded: its message was not passed on", "session", h.s.ide, "trigger", h.event.Trigger)
	}
}

// discardOffload undoes an offload no message refers to: the session
// forgets the file and the file is removed.
func (p *Pipeline) discardOffload(h heldOffload) {
	h.s.mu.Lock()
	h.s.offloads.remove(h.path, h.resolved)
	h.s.mu.Unlock()
	if err := os.Remove(h.path); err != nil {
		p.logger.Warn("removing an offload no message refers to", "path", h.path, "err", err)
		return
	}
	p.releaseOffload(h.bytes)
}
