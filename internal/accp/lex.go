package accp

// Character classes, as bits of charClass, so scanners test a byte with one
// table load.
const (
	cAlpha uint8 = 1 << iota
	cDigit
	cUnder // _
	cDash  // -
	cDot   // .
	cDelim // a delimiter of section 3.1 (including \)
	cPlain // printable ASCII that is neither a delimiter nor "_"
	cAgent = cAlpha | cDigit | cUnder | cDash
	cOp    = cAlpha | cDigit | cUnder
	cRef   = cAlpha | cDigit | cUnder | cDot
)

var charClass = func() (t [256]uint8) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = cPlain
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= cAlpha
		t[c-'a'+'A'] |= cAlpha
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= cDigit
	}
	t['_'] = cUnder
	t['-'] |= cDash
	t['.'] |= cDot
	for _, c := range []byte("@>:{}[]|$,~\\") {
		t[c] = cDelim
	}
	return t
}()

// span returns the end of the run of bytes from i whose class has a bit of
// mask.
func span(s string, i int, mask uint8) int {
	for i < len(s) && charClass[s[i]]&mask != 0 {
		i++
	}
	return i
}

func isDelim(c byte) bool {
	switch c {
	case '@', '>', ':', '{', '}', '[', ']', '|', '$', ',', '~', '\\':
		return true
	}
	return false
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isKeyChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '_'
}

func (p *parser) errf(code Code, format string, args ...any) *Error {
	return errorf(code, p.i, format, args...)
}

func (p *parser) unexpected(want string) *Error {
	if p.i >= len(p.s) {
		return p.errf(CodeParse, "unexpected end of frame, want %s", want)
	}
	c := p.s[p.i]
	if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		return p.errf(CodeParse, "whitespace is not allowed in a frame")
	}
	if isDelim(c) {
		return p.errf(CodeParse, "unexpected %q (unescaped delimiter?), want %s", c, want)
	}
	return p.errf(CodeParse, "unexpected %q, want %s", c, want)
}

func (p *parser) expect(c byte, want string) error {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return nil
	}
	return p.unexpected(want)
}

// more reads what follows an element of an array or a member of a map:
// a ',' (true: another follows) or the closing byte (false); anything
// else is an error that says it wanted want.
func (p *parser) more(closing byte, want string) (bool, error) {
	if p.i < len(p.s) && p.s[p.i] == ',' {
		p.i++
		return true, nil
	}
	return false, p.expect(closing, want)
}

// name scans 1*(class) and returns it.
func (p *parser) name(mask uint8, what string) (string, error) {
	start := p.i
	p.i = span(p.s, p.i, mask)
	if p.i == start {
		return "", p.unexpected(what)
	}
	return p.s[start:p.i], nil
}

func isAgentChar(c byte) bool { return isAlpha(c) || isDigit(c) || c == '-' || c == '_' }
func isOpChar(c byte) bool    { return isAlpha(c) || isDigit(c) || c == '_' }
func isRefChar(c byte) bool   { return isAlpha(c) || isDigit(c) || c == '_' || c == '.' }
