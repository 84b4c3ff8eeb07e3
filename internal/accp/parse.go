package accp

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Frame is one parsed ACCP frame: header (agent, intent), body (operation and
// params) and metadata (the envelope fields and any others). Params and Meta
// keep wire order; keys are unique.
type Frame struct {
	Agent  string
	Intent string
	Op     string
	Params []Field
	Meta   []Field
}

// Param returns the value of a body parameter.
func (f *Frame) Param(key string) (Value, bool) { return lookup(f.Params, key) }

// MetaValue returns the value of a metadata field.
func (f *Frame) MetaValue(key string) (Value, bool) { return lookup(f.Meta, key) }

func lookup(fields []Field, key string) (Value, bool) {
	for _, f := range fields {
		if f.Key == key {
			return f.Val, true
		}
	}
	return Value{}, false
}

// SetParam sets or replaces a body parameter.
func (f *Frame) SetParam(key string, v Value) { f.Params = set(f.Params, key, v) }

// SetMeta sets or replaces a metadata field.
func (f *Frame) SetMeta(key string, v Value) { f.Meta = set(f.Meta, key, v) }

func set(fields []Field, key string, v Value) []Field {
	for i := range fields {
		if fields[i].Key == key {
			fields[i].Val = v
			return fields
		}
	}
	return append(fields, Field{key, v})
}

// Limits bound the work a parser does on one frame (section 9, item 5).
// The zero value means the defaults.
type Limits struct {
	// MaxDepth is the deepest nesting of arrays and maps; optional, if zero
	// defaults to 5 as the draft recommends.
	MaxDepth int
	// MaxFrameBytes is the longest frame accepted; optional, if zero
	// defaults to 1 MiB.
	MaxFrameBytes int
	// MaxElements is the most values one frame may hold; optional, if zero
	// defaults to 10,000.
	MaxElements int
}

// Default limits.
const (
	DefaultMaxDepth      = 5
	DefaultMaxFrameBytes = 1 << 20
	DefaultMaxElements   = 10000
)

func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxFrameBytes <= 0 {
		l.MaxFrameBytes = DefaultMaxFrameBytes
	}
	if l.MaxElements <= 0 {
		l.MaxElements = DefaultMaxElements
	}
	return l
}

// ParseFrame parses one frame with the default limits, checking its intent
// against the core intents of section 4.1. A malformed frame is rejected
// whole: the result is either a complete frame or an *Error.
func ParseFrame(s string) (*Frame, error) {
	return Limits{}.Parse(s, nil)
}

// Parse parses one frame within l. Intents are checked against reg (nil
// means the built-in registry).
func (l Limits) Parse(s string, reg *Registry) (*Frame, error) {
	l = l.withDefaults()
	if len(s) > l.MaxFrameBytes {
		return nil, errorf(CodeParse, l.MaxFrameBytes, "frame of %d bytes exceeds the limit of %d", len(s), l.MaxFrameBytes)
	}
	p := parserPool.Get().(*parser)
	p.s, p.i, p.lim, p.elems = s, 0, l, 0
	p.counts, p.next = p.counts[:0], 0
	p.nfields, p.nvalues = 0, 0
	p.prescan()
	if p.nfields+p.nvalues <= maxSlab {
		if p.nfields > 0 {
			p.fslab = make([]Field, p.nfields)
		}
		if p.nvalues > 0 {
			p.vslab = make([]Value, p.nvalues)
		}
	}
	f, err := p.frame()
	p.s, p.keySets, p.fslab, p.vslab = "", nil, nil, nil
	if cap(p.counts) <= 4096 {
		parserPool.Put(p)
	}
	if err != nil {
		return nil, err
	}
	if reg == nil {
		reg = defaultRegistry
	}
	if !reg.HasIntent(f.Intent) {
		return nil, errorf(CodeInvalidIntent, 1+len(f.Agent)+1, "unknown intent %q", f.Intent)
	}
	return f, nil
}

type parser struct {
	s     string
	i     int
	lim   Limits
	elems int
	// keySets indexes the keys of large containers by container id.
	keySets map[int]map[string]bool
	// counts holds, for each container in order of opening, how many
	// elements a pre-scan found, so each is allocated once at its size;
	// next is the next container's index.
	counts []int32
	next   int
	// nfields and nvalues are the pre-scanned totals of fields (body,
	// metadata, map entries and pairs) and of array elements. A small
	// frame takes its containers from fslab and vslab, carved from one
	// allocation each, instead of allocating every container apart.
	nfields, nvalues int
	fslab            []Field
	vslab            []Value
}

// maxSlab is the most fields and elements a frame may hold for its
// containers to be carved from slabs; larger frames allocate each container
// at its size, so an invalid frame cannot make the parser allocate up front
// for elements it never reaches.
const maxSlab = 64

// fields returns an empty slice with room for n fields, carved from the
// slab when it has room. The slice's capacity is exactly n, so an append
// past it (only possible for an invalid frame, whose counts are hints)
// reallocates rather than overwriting the next container.
func (p *parser) fields(n int) []Field {
	if n <= len(p.fslab) {
		s := p.fslab[:0:n]
		p.fslab = p.fslab[n:]
		return s
	}
	return make([]Field, 0, n)
}

// values is fields for array elements.
func (p *parser) values(n int) []Value {
	if n <= len(p.vslab) {
		s := p.vslab[:0:n]
		p.vslab = p.vslab[n:]
		return s
	}
	return make([]Value, 0, n)
}

// prescan counts the elements of every container ("{" and "[") in order of
// opening. Structure characters inside strings are always escaped, so the
// counts are exact for a valid frame; for an invalid one they are only a
// capacity hint.
func (p *parser) prescan() {
	var stack [64]int32
	var isList [64]bool // whether the container at each depth is an array
	depth := 0
	s := p.s
	for i := 0; i < len(s); i++ {
		if charClass[s[i]]&cDelim == 0 {
			continue
		}
		switch c := s[i]; c {
		case '\\':
			i++
		case '{', '[':
			n := int32(0)
			if i+1 < len(s) && s[i+1] != '}' && s[i+1] != ']' {
				n = 1
			}
			p.counts = append(p.counts, n)
			list := c == '[' && depth > 0
			if depth < len(stack) {
				stack[depth] = int32(len(p.counts) - 1)
				isList[depth] = list
			}
			p.tally(list, int(n))
			depth++
		case '}', ']':
			if depth > 0 {
				depth--
			}
		case ',', '|':
			if depth > 0 && depth <= len(stack) {
				p.counts[stack[depth-1]]++
				p.tally(isList[depth-1], 1)
			}
		case ':':
			// In an array a ":" is a pair's (or an agent reference's),
			// and a pair takes one field.
			if depth > 0 && depth <= len(stack) && isList[depth-1] {
				p.nfields++
			}
		}
	}
}

// tally adds n to the pre-scanned total of array elements or of fields.
func (p *parser) tally(list bool, n int) {
	if list {
		p.nvalues += n
	} else {
		p.nfields += n
	}
}

// size returns the pre-scanned element count of the container being opened.
func (p *parser) size() int {
	if p.next < len(p.counts) {
		n := p.counts[p.next]
		p.next++
		return int(min(n, 1<<12))
	}
	return 4
}

var parserPool = sync.Pool{New: func() any { return &parser{counts: make([]int32, 0, 32)} }}

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

func (p *parser) frame() (*Frame, error) {
	f := &Frame{}
	var err error
	if err = p.expect('@', `"@" starting the header`); err != nil {
		return nil, err
	}
	if f.Agent, err = p.name(cAgent, "an agent id"); err != nil {
		return nil, err
	}
	if err = p.expect('>', `">" after the agent id`); err != nil {
		return nil, err
	}
	at := p.i
	if f.Intent, err = p.name(cOp, "an intent"); err != nil {
		return nil, err
	}
	if !allOf(f.Intent, isAlpha) {
		return nil, errorf(CodeInvalidIntent, at, "intent %q must be letters only", f.Intent)
	}
	if err = p.expect(':', `":" before the operation`); err != nil {
		return nil, err
	}
	if f.Op, err = p.name(cOp, "an operation"); err != nil {
		return nil, err
	}
	if err = p.expect('{', `"{" opening the body`); err != nil {
		return nil, err
	}
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
	} else {
		if f.Params, err = p.params('|', '}'); err != nil {
			return nil, err
		}
	}
	if p.i < len(p.s) && p.s[p.i] == '[' {
		p.i++
		if f.Meta, err = p.params(',', ']'); err != nil {
			return nil, err
		}
	}
	if p.i != len(p.s) {
		return nil, p.unexpected("end of frame")
	}
	return f, nil
}

// params parses param *(sep param) close.
func (p *parser) params(sep, close byte) ([]Field, error) {
	id := p.next
	fields := p.fields(p.size())
	for {
		key, err := p.name(cOp, "a key")
		if err != nil {
			return nil, err
		}
		if p.hasKey(id, fields, key) {
			return nil, p.errf(CodeParse, "duplicate key %q", key)
		}
		if err := p.expect(':', `":" after a key`); err != nil {
			return nil, err
		}
		fields = addField(fields, key)
		if err := p.value(&fields[len(fields)-1].Val, 0); err != nil {
			return nil, err
		}
		if p.i < len(p.s) && p.s[p.i] == sep {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			delete(p.keySets, id)
			return fields, nil
		}
		return nil, p.unexpected(fmt.Sprintf("%q or %q", sep, close))
	}
}

// hasKey reports whether key is among fs, the fields collected so far by
// container id. Past a few fields it indexes them, so a frame of thousands
// of keys stays linear.
func (p *parser) hasKey(id int, fs []Field, key string) bool {
	if len(fs) < 16 {
		for _, f := range fs {
			if f.Key == key {
				return true
			}
		}
		return false
	}
	if p.keySets == nil {
		p.keySets = map[int]map[string]bool{}
	}
	set := p.keySets[id]
	if set == nil || len(set) > len(fs) {
		set = make(map[string]bool, len(fs))
		p.keySets[id] = set
	}
	for _, f := range fs[len(set):] {
		set[f.Key] = true
	}
	return set[key]
}

func (p *parser) count() error {
	p.elems++
	if p.elems > p.lim.MaxElements {
		return p.errf(CodeParse, "frame holds more than %d values", p.lim.MaxElements)
	}
	return nil
}

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
		if depth+1 > p.lim.MaxDepth {
			return p.errf(CodeParse, "nesting deeper than %d levels", p.lim.MaxDepth)
		}
		p.i++
		dst.Kind = KindArray
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return nil
		}
		list := p.values(p.size())
		for {
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
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if err := p.expect(']', `"," or "]" in an array`); err != nil {
				return err
			}
			dst.List = list
			return nil
		}
	case '{':
		if depth+1 > p.lim.MaxDepth {
			return p.errf(CodeParse, "nesting deeper than %d levels", p.lim.MaxDepth)
		}
		p.i++
		dst.Kind = KindMap
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return nil
		}
		sorted := true
		id := p.next
		fields := p.fields(p.size())
		for {
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
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if err := p.expect('}', `"," or "}" in a map`); err != nil {
				return err
			}
			delete(p.keySets, id)
			if !sorted {
				sortFields(fields)
			}
			dst.Fields = fields
			return nil
		}
	}
	return p.scalar(dst)
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
