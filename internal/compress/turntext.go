package compress

// TurnTextBytes bounds the agent text of a turn the recorder keeps in
// memory for the turn-end checks (error codes the agent names in its own
// words, goal drift after a compression): the last TurnTextBytes of it.
const TurnTextBytes = 64 << 10

// turnText is the tail of the agent's text in the current turn.
type turnText struct {
	buf []byte
	cut bool // earlier text was dropped
}

// addLiteral adds the text of the JSON string literal lit and returns
// that text, valid until the next call: the recorder decodes an agent
// chunk once, for the turn's text and the archive. Earlier text beyond
// the bound is dropped at the next call.
func (t *turnText) addLiteral(lit []byte) []byte {
	if len(t.buf) > 2*TurnTextBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-TurnTextBytes:]...)
		t.cut = true
	}
	start := len(t.buf)
	t.buf = appendUnquoted(t.buf, lit)
	return t.buf[start:]
}

func (t *turnText) add(s string) {
	if len(s) >= TurnTextBytes {
		t.buf = append(t.buf[:0], s[len(s)-TurnTextBytes:]...)
		t.cut = true
		return
	}
	if len(t.buf)+len(s) > 2*TurnTextBytes {
		keep := TurnTextBytes - len(s)
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-keep:]...)
		t.cut = true
	}
	t.buf = append(t.buf, s...)
}

// text returns the last TurnTextBytes of the turn's text, starting at a
// character boundary.
func (t *turnText) text() string {
	b := t.buf
	if len(b) > TurnTextBytes {
		b = b[len(b)-TurnTextBytes:]
	}
	i := 0
	for i < len(b) && i < 3 && b[i]&0xC0 == 0x80 {
		i++
	}
	return string(b[i:])
}

// reset empties the tail and frees its memory.
func (t *turnText) reset() { t.buf, t.cut = nil, false }
