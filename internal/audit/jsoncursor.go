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
