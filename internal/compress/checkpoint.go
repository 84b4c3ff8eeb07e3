package compress

import (
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// tier2 logs that a large write/edit body is kept out of everything the
// bridge injects (ORANGE and above). Bodies are never injected at any
// level; the event records the saving once the context is under pressure.
func (p *Pipeline) tier2(s *session, lvl Level, path string, bodyBytes int) {
	const minBody = 2048
	if lvl < Orange || bodyBytes < minBody {
		return
	}
	before := estimateFromBytes(bodyBytes)
	pointer := fmt.Sprintf("%s: written; content persisted to disk", path)
	after := CountTokens(pointer)
	p.events.Add(Event{Time: p.now(), Session: s.ide, Type: EventTier2, Level: lvl.String(),
		Trigger:      fmt.Sprintf("write/edit body of %d bytes at %s", bodyBytes, lvl),
		TokensBefore: before, TokensAfter: after, TokensSaved: max(before-after, 0), Files: []string{}})
}

// turnEnd runs before the session/prompt response goes to the IDE: goal
// drift checks, the ACCP delta, the estimated usage_update and, at RED and
// CRITICAL, the tier-3 checkpoint. The session's state changes are one
// locked step (endTurn); the slow work (the ACCP delta, notices, the
// checkpoint) runs outside the lock, which is taken once more only to
// keep the checkpoint's outcome. It returns the turn's streamed text to be
// settled (settler) once the response has gone to the IDE, so that the
// settled estimate follows the turn-end one rather than racing it.
func (p *Pipeline) turnEnd(m *acpwire.Message) (settle settleJob) {
	down, _ := rawjson.GetString(m.Request.Params, "sessionId")
	s := p.lookup(p.ideID(down))
	if s == nil {
		return settleJob{}
	}
	s.mu.Lock()
	e := p.endTurn(s)
	s.mu.Unlock()
	if _, err := s.warm.delta(); err != nil {
		p.logger.Warn("ACCP warm state", "err", err)
	}
	for _, d := range e.drift {
		p.logger.Warn("goal drift after compression", "session", s.ide, "indicator", d, "after", e.after)
		p.events.Add(Event{Time: p.now(), Session: s.ide, Type: EventGoalDrift, Level: e.lvl.String(), Trigger: "first turn after " + e.after,
			IntentPreserved: IntentVerify, Detail: d})
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** possible goal drift after %s: the agent %s. Session intent: %q. Full conversation: %s\n", e.after, d, oneLine(e.intent, 200), e.archive))
	}
	if e.u.Estimated {
		p.sendEstimate(s, e.u)
	}
	if !e.checkpoint {
		return e.settle
	}
	u, lvl := e.u, e.lvl
	trigger := fmt.Sprintf("context at %.1f%% (%s)", u.Percent(), lvl)
	path, tokens, err := p.checkpoint(s, trigger)
	s.mu.Lock()
	if err != nil {
		s.failedAt = lvl
	} else if lvl == Critical {
		s.pendingRoll = true
	}
	s.mu.Unlock()
	switch {
	case err != nil:
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** context at %.0f%% (%s); checkpoint failed: %v\n", u.Percent(), lvl, err))
	case lvl == Critical:
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** context at %.0f%% (CRITICAL). Session checkpointed: summary of %d tokens, full conversation archived at %s. Your next message continues in a fresh agent session seeded with the summary; this session id stays the same.\n", u.Percent(), tokens, path))
	case e.canCompact:
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** context at %.0f%% (RED). Session checkpointed (archive: %s); the agent's /compact will run before your next message.\n", u.Percent(), path))
	default:
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** context at %.0f%% (RED). Session checkpointed (archive: %s). Use /bridge-compress to continue in a fresh session seeded with the summary.\n", u.Percent(), path))
	}
	return e.settle
}

// turnEnding is what endTurn decided, for the work done after the lock.
type turnEnding struct {
	drift           []string // goal drift indicators, if a drift watch ended
	after           string   // what the drift watch followed
	u               Usage
	lvl             Level
	intent, archive string
	checkpoint      bool      // a tier-3 checkpoint is due
	canCompact      bool      // the agent's own compaction will run after it
	settle          settleJob // the turn's streamed text, to be settled
}

// endTurn is turnEnd's locked step, called with s.mu held: it ends the
// drift watch, takes the turn's streamed text to be settled, scans the
// turn's text for facts, starts the next turn, and decides whether a
// checkpoint is due.
func (p *Pipeline) endTurn(s *session) turnEnding {
	var e turnEnding
	turnText := s.rec.TurnText()
	if w := s.watch; w != nil {
		s.watch = nil
		w.obs.AgentText = turnText
		// Reading the archive or offloaded content is recovery, not drift.
		touched := w.obs.Touched[:0]
		for _, path := range w.obs.Touched {
			if !p.store.Contains(path) {
				touched = append(touched, path)
			}
		}
		w.obs.Touched = touched
		e.drift = DriftCheck(w.obs, strings.Join(s.rec.userMessages, "\n"), s.rec.Artifacts(), s.rec.Cwd)
		e.after = w.reason
	}
	// The turn's byte estimate of streamed text is swapped for an o200k
	// count off the forwarding path (settler), unless the agent reports
	// its own usage, which the meter prefers: then nothing is tokenized.
	if pending := s.meter.TakePending(); !s.meter.AgentReports() {
		e.settle = settleJob{s, pending}
	}
	// Error codes the agent names in its own words are facts too; its
	// output streams in pieces, so look at the turn's text at once.
	s.rec.scanFacts(turnText)
	s.rec.StartTurn()
	s.rec.Release()
	e.u = s.meter.Usage()
	e.lvl = e.u.Level()
	s.warm.observe(s.rec, e.lvl)
	e.intent, e.archive = s.rec.Intent(), s.archive
	if e.u.Estimated {
		s.sentLevel = e.lvl
	}
	if e.lvl < Red {
		s.checkpointed, s.compacted, s.failedAt = false, false, 0
		return e
	}
	// Nothing to do if a checkpoint covers this level, or one failed at
	// this level already (it is retried when the level rises).
	e.checkpoint = !(s.checkpointed && (e.lvl < Critical || s.pendingRoll) || s.failedAt >= e.lvl)
	e.canCompact = p.cfg.AgentCompact && s.rec.HasCommand("compact") && !s.compacted
	return e
}

// checkpoint runs tier 3: archive the conversation, build and verify the
// Session Summary, keep it as ACCP warm state. It returns the archive path
// and the summary's tokens. A summary that fails verification is replaced
// by the previous verified one, if any.
func (p *Pipeline) checkpoint(s *session, trigger string) (string, int, error) {
	now := p.now()
	s.mu.Lock()
	u := s.meter.Usage()
	path, err := s.rec.saveArchive(p.store, s.ide, now)
	s.rec.Release()
	s.mu.Unlock()
	if err != nil {
		return "", 0, err
	}
	replaced := int(u.Used)
	s.mu.Lock()
	sum := BuildSummary(s.rec, now, path, p.store.OffloadedDir(), replaced)
	md := sum.Markdown()
	intent := s.rec.Intent()
	var edited []string
	for _, a := range s.rec.artifacts {
		edited = append(edited, a.Path)
	}
	s.warm.observe(s.rec, u.Level())
	s.mu.Unlock()
	preserved := IntentPreserved
	if verr := Verify(md, replaced, intent, edited); verr != nil {
		prev, prevID := s.warm.previous()
		p.logger.Warn("session summary rejected", "session", s.ide, "err", verr, "fallback", prevID)
		p.events.Add(Event{Time: now, Session: s.ide, Type: EventRejected, Level: u.Level().String(), Trigger: trigger,
			TokensBefore: replaced, TokensAfter: CountTokens(md), Files: []string{path}, IntentPreserved: IntentVerify, Detail: verr.Error()})
		if prev == "" {
			return path, 0, fmt.Errorf("summary rejected (%v) and no earlier checkpoint to fall back to", verr)
		}
		md, preserved = prev, IntentVerify
	} else if _, err := s.warm.checkpoint(md); err != nil {
		p.logger.Warn("ACCP checkpoint", "err", err)
	}
	after := CountTokens(md)
	s.mu.Lock()
	s.summary, s.archive, s.checkpointed = md, path, true
	s.rec.Note(now, "Bridge", fmt.Sprintf("checkpoint (%s): summary of %d tokens", trigger, after))
	s.mu.Unlock()
	p.events.Add(Event{Time: now, Session: s.ide, Type: EventTier3, Level: u.Level().String(), Trigger: trigger,
		TokensBefore: replaced, TokensAfter: after, TokensSaved: max(replaced-after, 0), Files: []string{path}, IntentPreserved: preserved})
	return path, after, nil
}
