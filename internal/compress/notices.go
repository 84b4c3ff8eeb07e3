package compress

import "github.com/acp-bridge/acp-bridge/internal/acpwire"

// accountLiterals adds streamed text, given as JSON string literals, to
// s's meter (see Meter.AddStreamed: a literal is decoded only if sampled)
// and reports whether the estimated level changed, with the usage to send.
func (p *Pipeline) accountLiterals(s *session, lits [][]byte) (Usage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return p.accountLocked(s, lits...)
}

// accountLocked is accountLiterals with s.mu held.
func (p *Pipeline) accountLocked(s *session, lits ...[]byte) (Usage, bool) {
	for _, lit := range lits {
		s.meter.AddStreamed(max(len(lit)-2, 0), func() string { return jsonText(lit) })
	}
	u := s.meter.Usage()
	changed := u.Estimated && u.Level() != s.sentLevel
	if changed {
		s.sentLevel = u.Level()
	}
	return u, changed
}

// account adds n tokens to s's meter and tells the IDE when an estimated
// level changes.
func (p *Pipeline) account(s *session, n int) {
	s.mu.Lock()
	s.meter.Add(n)
	p.noteLevel(s)
}

// noteLevel is called with s.mu held and releases it; it tells the IDE when
// the estimated level changed.
func (p *Pipeline) noteLevel(s *session) {
	u := s.meter.Usage()
	changed := u.Estimated && u.Level() != s.sentLevel
	if changed {
		s.sentLevel = u.Level()
	}
	s.mu.Unlock()
	if changed {
		p.sendEstimate(s, u)
	}
}

// sendEstimate tells the IDE the bridge's estimate of the context fill.
func (p *Pipeline) sendEstimate(s *session, u Usage) {
	params := map[string]any{
		"sessionId": s.ide,
		"update": map[string]any{
			"sessionUpdate": "usage_update",
			"used":          u.Used,
			"size":          u.Size,
			"_meta":         map[string]any{"acp-bridge": map[string]any{"estimated": true, "level": u.Level().String(), "tokenizer": "o200k_base"}},
		},
	}
	if err := p.s.Notify(acpwire.AgentToClient, "session/update", params); err != nil {
		p.logger.Debug("sending estimated usage_update", "err", err)
	}
}

// say sends the IDE a visible agent message in session s.
func (p *Pipeline) say(s *session, text string) {
	params := map[string]any{
		"sessionId": s.ide,
		"update": map[string]any{
			"sessionUpdate": "agent_message_chunk",
			"content":       map[string]any{"type": "text", "text": text},
			"_meta":         map[string]any{"acp-bridge": map[string]any{"note": true}},
		},
	}
	if err := p.s.Notify(acpwire.AgentToClient, "session/update", params); err != nil {
		p.logger.Debug("sending note", "err", err)
	}
}
