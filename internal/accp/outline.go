package accp

// ParseOutline parses a frame's header and metadata as Parse does and
// leaves its body unparsed: f has no Params, and body is the text between
// the body's braces. The body is only delimited (brackets and braces
// matched, escapes skipped), not checked, so no value of it is built: a
// layer that bounds what a body stands for can read body itself and
// refuse a frame before Parse allocates for its values. A frame Parse
// accepts is one ParseOutline accepts, with the same header and Meta.
func (l Limits) ParseOutline(s string, reg *Registry) (f *Frame, body string, err error) {
	l = l.withDefaults()
	if len(s) > l.MaxFrameBytes {
		return nil, "", errorf(CodeParse, l.MaxFrameBytes, "frame of %d bytes exceeds the limit of %d", len(s), l.MaxFrameBytes)
	}
	p := &parser{s: s, lim: l}
	f = &Frame{}
	if err := p.expect('@', `"@" starting the header`); err != nil {
		return nil, "", err
	}
	if f.Agent, err = p.name(cAgent, "an agent id"); err != nil {
		return nil, "", err
	}
	if err := p.expect('>', `">" after the agent id`); err != nil {
		return nil, "", err
	}
	at := p.i
	if f.Intent, err = p.name(cOp, "an intent"); err != nil {
		return nil, "", err
	}
	if !allOf(f.Intent, isAlpha) {
		return nil, "", errorf(CodeInvalidIntent, at, "intent %q must be letters only", f.Intent)
	}
	if err := p.expect(':', `":" before the operation`); err != nil {
		return nil, "", err
	}
	if f.Op, err = p.name(cOp, "an operation"); err != nil {
		return nil, "", err
	}
	if err := p.expect('{', `"{" opening the body`); err != nil {
		return nil, "", err
	}
	start := p.i
	if err := p.skipBody(); err != nil {
		return nil, "", err
	}
	body = s[start : p.i-1]
	if p.i < len(s) && s[p.i] == '[' {
		p.i++
		if f.Meta, err = p.params(',', ']'); err != nil {
			return nil, "", err
		}
	}
	if p.i != len(s) {
		return nil, "", p.unexpected("end of frame")
	}
	if reg == nil {
		reg = defaultRegistry
	}
	if !reg.HasIntent(f.Intent) {
		return nil, "", errorf(CodeInvalidIntent, 1+len(f.Agent)+1, "unknown intent %q", f.Intent)
	}
	return f, body, nil
}

// skipBody moves p.i past the "}" closing the body, matching the brackets
// and braces inside it. Structure characters inside values are always
// escaped, so the first unmatched closer ends the body.
func (p *parser) skipBody() error {
	var open []byte // the closers owed, innermost last
	for ; p.i < len(p.s); p.i++ {
		switch c := p.s[p.i]; c {
		case '\\':
			p.i++
		case '{', '[':
			if len(open) == p.lim.MaxDepth {
				return p.errf(CodeParse, "nesting deeper than %d levels", p.lim.MaxDepth)
			}
			open = append(open, c+2) // "}" and "]" follow "{" and "[" by two
		case '}', ']':
			if len(open) == 0 {
				if c != '}' {
					return p.unexpected(`"}" closing the body`)
				}
				p.i++
				return nil
			}
			if open[len(open)-1] != c {
				return p.errf(CodeParse, "unexpected %q, want %q", c, open[len(open)-1])
			}
			open = open[:len(open)-1]
		}
	}
	return p.unexpected(`"}" closing the body`)
}
