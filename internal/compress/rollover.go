package compress

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// rollover opens a fresh downstream session with the original session's
// parameters and returns the prompt block carrying the summary. The IDE's
// session id stays; ids are translated from now on.
func (p *Pipeline) rollover(ctx context.Context, s *session) ([]byte, bool) {
	s.mu.Lock()
	s.pendingRoll = false
	params := s.newParams
	md, archive := s.summary, s.archive
	before := s.meter.Usage()
	oldDown := s.down
	rctx, cancel := context.WithTimeout(ctx, DefaultSessionTimeout)
	s.cancelSetup = cancel
	s.mu.Unlock()
	defer s.endSetup(cancel)
	if md == "" || params == nil {
		p.say(s, "> **acp-bridge:** rollover skipped: no verified summary or no session parameters.\n\n")
		return nil, false
	}
	// The agent speaks in the new session right after answering (Claude
	// sends its command list at once), so the id mapping must exist before
	// the bridge reads its next message: record it on the forwarding loop.
	var newID, freshMode, modeOption string
	var fresh json.RawMessage
	err := p.s.CallThen(rctx, acpwire.ClientToAgent, "session/new", params, func(res json.RawMessage, err error) error {
		if err != nil {
			return err
		}
		newID, _ = rawjson.GetString(res, "sessionId")
		if newID == "" {
			return fmt.Errorf("session/new result has no sessionId")
		}
		p.lockChanging()
		if p.sessionIDTaken(newID) {
			p.mu.Unlock()
			return fmt.Errorf("session/new result names session %q, which is not a fresh one", newID)
		}
		p.ideToDown[s.ide] = newID
		p.downToIDE[newID] = s.ide
		if oldDown != s.ide {
			p.downToIDE[oldDown] = s.ide
		}
		p.mu.Unlock()
		freshMode, modeOption = freshModeOf(res)
		fresh = append(fresh, res...)
		if p.cfg.OnRollover != nil {
			p.cfg.OnRollover(s.ide, res)
		}
		return nil
	})
	if err != nil {
		p.logger.Warn("rollover failed; staying in the current session", "session", s.ide, "err", err)
		// The error may be the agent's words: quoted on one line, so they
		// cannot pass for a note of the bridge's own.
		p.say(s, fmt.Sprintf("> **acp-bridge:** could not open a fresh agent session (%q); continuing in the current one.\n\n", oneLine(err.Error(), 200)))
		return nil, false
	}
	s.mu.Lock()
	want := s.mode
	s.mu.Unlock()
	moved := p.restoreSettings(rctx, s, newID, fresh)
	mode := p.restoreMode(rctx, s, newID, want, freshMode, modeOption, moved)
	text := "[acp-bridge] This session continues earlier work whose context was checkpointed. " +
		"The summary below preserves the user's intent and instructions; the full conversation is at " + archive +
		" (read it in ranges if you need detail).\n\n" + md
	block, _ := json.Marshal(map[string]any{"type": "text", "text": text})
	after := CountTokens(text)
	s.mu.Lock()
	s.down = newID
	s.mode = mode
	s.meter.Reset(after)
	s.sentLevel = Classify(int64(after), p.cfg.ContextSize)
	s.checkpointed, s.compacted = false, false
	s.watch = &driftWatch{reason: "the rollover to a fresh session"}
	s.rec.Note(p.now(), "Bridge", "rolled over to downstream session "+newID)
	s.mu.Unlock()
	p.events.Add(Event{Time: p.now(), Session: s.ide, Type: EventRollover, Level: before.Level().String(),
		Trigger:      fmt.Sprintf("context at %.1f%% (%s)", before.Percent(), before.Level()),
		TokensBefore: int(before.Used), TokensAfter: after, TokensSaved: max(int(before.Used)-after, 0), Files: []string{archive}})
	p.say(s, fmt.Sprintf("> **acp-bridge:** session checkpointed; continuing in a fresh agent session seeded with a %d-token summary. Full conversation: %s\n\n", after, archive))
	return block, true
}

// sessionIDTaken reports whether id, the session a rollover's session/new
// result names, is one the bridge already knows: a session the IDE opened
// (this one included) or the agent session another one continues in. The
// agent chooses it; mapped as this session's continuation, an open
// session's id would carry that session's messages to the IDE, and its
// tool calls to governance and the audit log, as this one's, and the IDE's
// other session would speak to an agent session this one now owns. p.mu
// held.
func (p *Pipeline) sessionIDTaken(id string) bool {
	if _, ok := p.sessions[id]; ok {
		return true
	}
	if _, ok := p.downToIDE[id]; ok {
		return true
	}
	_, ok := p.ideToDown[id]
	return ok
}

// endSetup ends the setup call (a rollover's session/new, a compaction's
// prompt) whose context cancel cancels: it cancels it and forgets it, so
// a session/cancel no longer reaches it through s.cancelSetup.
func (s *session) endSetup(cancel context.CancelFunc) {
	cancel()
	s.mu.Lock()
	s.cancelSetup = nil
	s.mu.Unlock()
}

// compact runs the agent's own /compact between turns, with instructions
// built from the summary.
func (p *Pipeline) compact(ctx context.Context, s *session) {
	s.mu.Lock()
	s.compacted = true
	down := s.down
	intent := s.rec.Intent()
	var paths []string
	for _, a := range s.rec.artifacts {
		paths = append(paths, a.Path)
	}
	facts := s.rec.Facts()
	archive := s.archive
	before := s.meter.Usage()
	cctx, cancel := context.WithTimeout(ctx, p.cfg.CompactTimeout)
	s.cancelSetup = cancel
	s.mu.Unlock()
	defer s.endSetup(cancel)
	instr := "/compact Preserve verbatim the session intent: " + oneLine(intent, 600)
	if len(paths) > 0 {
		instr += ". Keep every edited file path: " + strings.Join(shownPaths(paths), ", ")
	}
	if len(facts) > 0 {
		instr += ". Keep these facts: " + strings.Join(facts[:min(len(facts), 10)], "; ")
	}
	instr += ". Full conversation archive: " + archive
	params := map[string]any{"sessionId": down, "prompt": []map[string]any{{"type": "text", "text": instr}}}
	_, err := p.s.Call(cctx, acpwire.ClientToAgent, "session/prompt", params)
	if err != nil {
		if cctx.Err() != nil {
			_ = p.s.Notify(acpwire.ClientToAgent, "session/cancel", map[string]any{"sessionId": down})
		}
		p.logger.Warn("agent compaction failed", "session", s.ide, "err", err)
		return
	}
	s.mu.Lock()
	s.watch = &driftWatch{reason: "the agent's /compact"}
	s.mu.Unlock()
	p.events.Add(Event{Time: p.now(), Session: s.ide, Type: EventCompact, Level: before.Level().String(),
		Trigger: fmt.Sprintf("context at %.1f%% (%s); agent advertises /compact", before.Percent(), before.Level()), TokensBefore: int(before.Used),
		Files: []string{archive}, IntentPreserved: IntentVerify, Detail: "tokens after: see the agent's next usage_update"})
}
