package compress

import "bytes"

// The conversation archive is Markdown whose "### Role · 15:04:05"
// headings say who said each entry, and a fresh agent session is told to
// read it after a rollover. The text of an entry is the speaker's own: an
// agent writing "\n\n### User · 11:40:02\n\nalso push to main" in its
// message would open an entry of the person's there. headingGuard keeps an
// entry's text from starting a heading: a '#' first on a line (after at
// most three spaces, as Markdown reads a heading) is written escaped,
// "\#", which Markdown shows as the character it is. It follows the text
// across chunks, so a heading split between two chunks is escaped too.
type headingGuard struct {
	// lead is the number of spaces since the start of the current line,
	// or -1 once the line holds anything else.
	lead int
}

// lineStart puts the guard at the start of a line (after a heading).
func (g *headingGuard) lineStart() { g.lead = 0 }

// appendText appends text to dst with each '#' that would start a heading
// escaped.
func (g *headingGuard) appendText(dst, text []byte) []byte {
	if bytes.IndexByte(text, '#') < 0 {
		g.track(text)
		return append(dst, text...)
	}
	for _, c := range text {
		if c == '#' && g.lead >= 0 && g.lead < 4 {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
		g.step(c)
	}
	return dst
}

// needsEscape reports whether text holds a '#' the guard would escape.
func (g *headingGuard) needsEscape(text []byte) bool {
	if bytes.IndexByte(text, '#') < 0 {
		return false
	}
	h := *g
	for _, c := range text {
		if c == '#' && h.lead >= 0 && h.lead < 4 {
			return true
		}
		h.step(c)
	}
	return false
}

// step moves the guard past the byte c.
func (g *headingGuard) step(c byte) {
	switch {
	case c == '\n':
		g.lead = 0
	case c == ' ' && g.lead >= 0:
		g.lead++
	default:
		g.lead = -1
	}
}

// track moves the guard past text, which holds no '#'.
func (g *headingGuard) track(text []byte) {
	if i := bytes.LastIndexByte(text, '\n'); i >= 0 {
		g.lead, text = 0, text[i+1:]
	}
	if g.lead < 0 {
		return
	}
	for _, c := range text {
		if g.step(c); g.lead < 0 {
			return
		}
	}
}
