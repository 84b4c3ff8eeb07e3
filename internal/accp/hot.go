package accp

// hotFrame is one frame held as hot state: its line, its message, and its
// token count once counted.
type hotFrame struct {
	line   string
	msg    *Message
	tokens int // -1 until counted
}

// addHot keeps line, the frame of m, as hot state for the next checkpoint
// (section 5), unless the session keeps none.
func (s *Session) addHot(line string, m *Message) {
	if s.opt.Checkpoints == CheckpointNone {
		return
	}
	s.hot = append(s.hot, hotFrame{line, m, -1})
	if s.opt.Checkpoints == CheckpointAuto {
		s.countHotLocked()
	}
}

// countHotLocked counts the tokens of hot frames not counted yet; counting
// is deferred when no automatic checkpoint needs it.
func (s *Session) countHotLocked() {
	for i := range s.hot {
		if s.hot[i].tokens < 0 {
			s.hot[i].tokens = CountTokens(s.hot[i].line)
			s.hotTokens += s.hot[i].tokens
		}
	}
}

// triggersLocked reports whether a checkpoint is due (section 5.2): a done,
// esc or comp intent, or hot state over 400 tokens.
func (s *Session) triggersLocked(intent string) bool {
	switch intent {
	case "done", "esc", "comp":
		return true
	}
	return s.hotTokens > HotCheckpointTokens
}
