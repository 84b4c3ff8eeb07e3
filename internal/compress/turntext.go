package compress

// TurnTextBytes bounds the agent text of a turn the recorder keeps in
// memory for the turn-end checks (error codes the agent names in its own
// words, goal drift after a compression): the last TurnTextBytes of it.
const TurnTextBytes = 64 << 10

// turnText is the tail of the agent's text in the current turn: the end
// of prev, then buf. buf grows to TurnTextBytes and then becomes prev,
// whose bytes it had before take its place: no text is moved to keep the
// tail, and prev and buf together always hold at least the last
// TurnTextBytes of the turn.
type turnText struct {
	prev, buf []byte
}

// addLiteral adds the text of the JSON string literal lit and returns
// that text, valid until the next call: the recorder decodes an agent
// chunk once, for the turn's text and the archive.
func (t *turnText) addLiteral(lit []byte) []byte {
	if len(t.buf) >= TurnTextBytes {
		t.prev, t.buf = t.buf, t.prev[:0]
	}
	start := len(t.buf)
	t.buf = appendUnquoted(t.buf, lit)
	return t.buf[start:]
}

// text returns the last TurnTextBytes of the turn's text, starting at a
// character boundary.
func (t *turnText) text() string {
	b := t.buf
	var p []byte // the part of prev that is in the tail, before b
	if len(b) > TurnTextBytes {
		b = b[len(b)-TurnTextBytes:]
	} else {
		p = t.prev[max(len(t.prev)-(TurnTextBytes-len(b)), 0):]
	}
	// The tail starts with at most three bytes of a character cut off.
	for i := 0; i < 3; i++ {
		switch {
		case len(p) > 0 && p[0]&0xC0 == 0x80:
			p = p[1:]
		case len(p) == 0 && len(b) > 0 && b[0]&0xC0 == 0x80:
			b = b[1:]
		}
	}
	return string(p) + string(b)
}

// reset empties the tail and frees its memory.
func (t *turnText) reset() { t.prev, t.buf = nil, nil }
