package accp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// value parses one value into *dst, which the caller has placed where it
// belongs, so a value is written once rather than copied up the stack.
func (p *parser) value(dst *Value, depth int) error {
	if err := p.count(); err != nil {
		return err
	}
	if p.i >= len(p.s) {
		return p.unexpected("a value")
	}
	switch p.s[p.i] {
	case '~':
		p.i++
		dst.Kind = KindNull
		return nil
	case '$':
		p.i++
		key, err := p.name(cRef, "a ref key after \"$\"")
		if err != nil {
			return err
		}
		dst.Kind, dst.Str = KindRef, key
		return nil
	case '@':
		p.i++
		start := p.i
		if _, err := p.name(cAgent, "an agent id after \"@\""); err != nil {
			return err
		}
		if p.i+1 < len(p.s) && p.s[p.i] == ':' && isOpChar(p.s[p.i+1]) {
			p.i++
			p.name(cOp, "an operation")
		}
		dst.Kind, dst.Str = KindAgent, p.s[start:p.i]
		return nil
	case '[':
		if empty, err := p.open(dst, KindArray, ']', depth); empty || err != nil {
			return err
		}
		list := p.values(p.size())
		for more := true; more; {
			// Only this loop appends to list, so the element's address
			// stays valid while it is parsed.
			if n := len(list); n < cap(list) {
				list = list[:n+1] // the slot is still zero
			} else {
				list = append(list, Value{})
			}
			if err := p.item(&list[len(list)-1], depth+1); err != nil {
				return err
			}
			var err error
			if more, err = p.more(']', `"," or "]" in an array`); err != nil {
				return err
			}
		}
		dst.List = list
		return nil
	case '{':
		if empty, err := p.open(dst, KindMap, '}', depth); empty || err != nil {
			return err
		}
		sorted := true
		id := p.next
		fields := p.fields(p.size())
		for more := true; more; {
			at := p.i
			key, err := p.mapKey()
			if err != nil {
				return err
			}
			if err := p.expect(':', `":" after a map key`); err != nil {
				return err
			}
			if n := len(fields); n > 0 && fields[n-1].Key >= key {
				sorted = false
			}
			if !sorted && p.hasKey(id, fields, key) {
				return errorf(CodeParse, at, "duplicate map key %q", key)
			}
			fields = addField(fields, key)
			if err := p.value(&fields[len(fields)-1].Val, depth+1); err != nil {
				return err
			}
			if more, err = p.more('}', `"," or "}" in a map`); err != nil {
				return err
			}
		}
		delete(p.keySets, id)
		if !sorted {
			sortFields(fields)
		}
		dst.Fields = fields
		return nil
	}
	return p.scalar(dst)
}

// open enters the array or map whose opening byte is at p.i, one level
// below depth, and makes *dst of kind. It reports whether the container is
// empty, its closing byte read too.
func (p *parser) open(dst *Value, kind Kind, closing byte, depth int) (empty bool, err error) {
	if depth+1 > p.lim.MaxDepth {
		return false, p.tooDeep()
	}
	p.i++
	dst.Kind = kind
	if p.i < len(p.s) && p.s[p.i] == closing {
		p.i++
		return true, nil
	}
	return false, nil
}

// tooDeep is the error for a container nested deeper than the limit.
func (p *parser) tooDeep() error {
	return p.errf(CodeParse, "nesting deeper than %d levels", p.lim.MaxDepth)
}

// item parses an array element: a value, or a key:value pair (the draft's
// 3.2 example "f:[rev:-12%QoQ,...]").
func (p *parser) item(dst *Value, depth int) error {
	j := p.i
	for j < len(p.s) && isKeyChar(p.s[j]) {
		j++
	}
	if j > p.i && j < len(p.s) && p.s[j] == ':' {
		key := p.s[p.i:j]
		p.i = j + 1
		if err := p.count(); err != nil {
			return err
		}
		pair := addField(p.fields(1), key)
		if err := p.value(&pair[0].Val, depth); err != nil {
			return err
		}
		dst.Kind, dst.Fields = KindPair, pair
		return nil
	}
	return p.value(dst, depth)
}

// mapKey parses a key inside a map value: key characters, with \uXXXX for
// any other character and \' alone for the empty key.
func (p *parser) mapKey() (string, error) {
	start := p.i
	simple := true
	for p.i < len(p.s) {
		c := p.s[p.i]
		if isKeyChar(c) {
			p.i++
			continue
		}
		if c == '\\' && p.i+1 < len(p.s) && p.s[p.i+1] == 'u' {
			simple = false
			if _, err := p.hexEscape(); err != nil {
				return "", err
			}
			continue
		}
		break
	}
	if p.i == start {
		if strings.HasPrefix(p.s[p.i:], `\'`) {
			p.i += 2
			return "", nil
		}
		return "", p.unexpected("a map key")
	}
	if simple {
		return p.s[start:p.i], nil
	}
	var b strings.Builder
	q := parser{s: p.s[start:p.i], lim: p.lim}
	for q.i < len(q.s) {
		if q.s[q.i] == '\\' {
			r, _ := q.hexEscape()
			b.WriteRune(r)
			continue
		}
		b.WriteByte(q.s[q.i])
		q.i++
	}
	return b.String(), nil
}

// hexEscape reads \uXXXX (and a following low surrogate when XXXX is a high
// one) at p.i.
func (p *parser) hexEscape() (rune, error) {
	r, err := p.hex4()
	if err != nil {
		return 0, err
	}
	if r >= 0xD800 && r < 0xDC00 {
		r2, err := p.hex4()
		if err != nil || r2 < 0xDC00 || r2 > 0xDFFF {
			return 0, p.errf(CodeParse, "unpaired surrogate in \\u escape")
		}
		return (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000, nil
	}
	if r >= 0xDC00 && r <= 0xDFFF {
		return 0, p.errf(CodeParse, "unpaired surrogate in \\u escape")
	}
	return r, nil
}

func (p *parser) hex4() (rune, error) {
	if p.i+6 > len(p.s) || p.s[p.i] != '\\' || p.s[p.i+1] != 'u' {
		return 0, p.errf(CodeParse, "malformed \\u escape")
	}
	var r rune
	for _, c := range []byte(p.s[p.i+2 : p.i+6]) {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, p.errf(CodeParse, "malformed \\u escape (want 4 upper-case hex digits)")
		}
	}
	p.i += 6
	return r, nil
}

// scalar parses a boolean, integer, decimal, string or raw-number token.
func (p *parser) scalar(dst *Value) error {
	kind, str, err := p.scalarToken()
	if err != nil {
		return err
	}
	// A scalar has no list or fields and *dst is zero: setting the kind
	// and text costs one pointer write, where copying a whole Value would
	// cost a write barrier on each of its pointers.
	if kind == KindBool {
		dst.Kind, dst.Bool = KindBool, str == "true"
		return nil
	}
	dst.Kind, dst.Str = kind, str
	return nil
}

// addField appends an entry with key and a zero value to fs. Within
// capacity it only extends fs and sets the key: slots past len are still
// zero (fresh from make, a slab or append), so the entry need not be copied
// in whole.
func addField(fs []Field, key string) []Field {
	if n := len(fs); n < cap(fs) {
		fs = fs[:n+1]
		fs[n].Key = key
		return fs
	}
	return append(fs, Field{Key: key})
}

// scalarToken scans a scalar and returns its kind and text: the digits of
// a number, the decoded text of a string, "true" or "false" for a boolean.
func (p *parser) scalarToken() (Kind, string, error) {
	start := p.i
	plain := true
	for p.i < len(p.s) {
		c := p.s[p.i]
		if charClass[c]&cPlain != 0 {
			p.i++
			continue
		}
		if c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7f {
				if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
					return 0, "", p.errf(CodeParse, "whitespace is not allowed in a frame")
				}
				return 0, "", p.errf(CodeParse, "control character %#x in a value", c)
			}
			if c == '\\' {
				plain = false
				if p.i+1 >= len(p.s) {
					return 0, "", p.errf(CodeParse, "escape at end of frame")
				}
				p.i += 2
				if p.s[p.i-1] == 'u' {
					p.i -= 2
					if _, err := p.hexEscape(); err != nil {
						return 0, "", err
					}
				}
				continue
			}
			if isDelim(c) {
				break
			}
			if c == '_' {
				plain = false
			}
			p.i++
			continue
		}
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		if r == utf8.RuneError && size == 1 {
			return 0, "", p.errf(CodeParse, "invalid UTF-8")
		}
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return 0, "", p.errf(CodeParse, "whitespace or control character U+%04X must be escaped", r)
		}
		p.i += size
	}
	tok := p.s[start:p.i]
	if tok == "" {
		return 0, "", p.unexpected("a value")
	}
	if plain {
		switch tok[0] {
		case 't':
			if tok == "true" {
				return KindBool, tok, nil
			}
		case 'f':
			if tok == "false" {
				return KindBool, tok, nil
			}
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			switch numberClass(tok) {
			case numInt:
				return KindInt, tok, nil
			case numDecimal:
				return KindDecimal, tok, nil
			case numNonCanonical:
				return 0, "", errorf(CodeInvalidType, start, "number %q is not in canonical form (no leading zeros, at most 6 decimal places, no trailing zeros)", tok)
			}
		}
		return KindString, tok, nil
	}
	v, err := unescape(tok, start)
	return v.Kind, v.Str, err
}

// unescape decodes a token that holds escapes or underscores.
func unescape(tok string, off int) (Value, error) {
	if strings.HasPrefix(tok, `\#`) {
		lex := tok[2:]
		if !isJSONNumber(lex) {
			return Value{}, errorf(CodeInvalidType, off, "\\# must be followed by a JSON number, got %q", lex)
		}
		if c := numberClass(lex); c == numInt || c == numDecimal {
			return Value{}, errorf(CodeInvalidType, off, "number %q has a canonical form and must not use \\#", lex)
		}
		return Value{Kind: KindNumber, Str: lex}, nil
	}
	i := 0
	lit := false
	if strings.HasPrefix(tok, `\'`) {
		i = 2
		lit = true
	}
	var b strings.Builder
	b.Grow(len(tok))
	for i < len(tok) {
		c := tok[i]
		switch c {
		case '_':
			if lit {
				b.WriteByte('_')
			} else {
				b.WriteByte(' ')
			}
			i++
		case '\\':
			e := tok[i+1]
			switch {
			case isDelim(e):
				b.WriteByte(e)
			case e == '_':
				b.WriteByte('_')
			case e == 'n':
				b.WriteByte('\n')
			case e == 't':
				b.WriteByte('\t')
			case e == 'r':
				b.WriteByte('\r')
			case e == 'u':
				q := parser{s: tok, i: i}
				r, err := q.hexEscape()
				if err != nil {
					return Value{}, errorf(CodeParse, off+i, "%s", err.(*Error).Msg)
				}
				b.WriteRune(r)
				i = q.i
				continue
			default:
				return Value{}, errorf(CodeParse, off+i, "unknown escape \\%c", e)
			}
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return Value{Kind: KindString, Str: b.String()}, nil
}
