package audit

// jsonCursor is a position in a JSON text: what fastDecoder and
// outputScanner read their input with.
type jsonCursor struct {
	data []byte
	i    int
}

// space reads past white space.
func (c *jsonCursor) space() {
	for c.i < len(c.data) {
		switch c.data[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// separator reads past the white space after an array's element or an
// object's member and the ',' or closing byte that follows it: more is
// true after a ',', ok false when anything else follows.
func (c *jsonCursor) separator(closing byte) (more, ok bool) {
	c.space()
	if c.i >= len(c.data) {
		return false, false
	}
	switch c.data[c.i] {
	case ',':
		c.i++
		return true, true
	case closing:
		c.i++
		return false, true
	}
	return false, false
}

// empty reads past the white space after an object's or an array's
// opening byte and, when closing follows, past it too: it reports an
// empty object or array.
func (c *jsonCursor) empty(closing byte) bool {
	c.space()
	if c.i < len(c.data) && c.data[c.i] == closing {
		c.i++
		return true
	}
	return false
}

// atName reads past white space and reports whether a member's name, a
// string, comes next.
func (c *jsonCursor) atName() bool {
	c.space()
	return c.i < len(c.data) && c.data[c.i] == '"'
}

// colon reads past the white space after a member's name and the ':'
// that follows it, false when anything else follows.
func (c *jsonCursor) colon() bool {
	c.space()
	if c.i >= len(c.data) || c.data[c.i] != ':' {
		return false
	}
	c.i++
	return true
}
