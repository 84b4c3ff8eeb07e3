package accp

import (
	"unicode"
	"unicode/utf8"
)

// ValueSize returns len(AppendValue(nil, v)), the length of v's canonical
// text, without rendering it. For a value built from parts whose sizes are
// known (such as a decoded frame's values), it lets a caller bound work
// before doing it.
func ValueSize(v Value) int {
	var m frameMeasure
	return m.value(v, 0)
}

// StringSize returns the length of the canonical text of the string s
// (ValueSize of String(s)).
func StringSize(s string) int {
	lit := literalMode(s)
	n := 0
	if lit {
		n = 2
	}
	for i := 0; i < len(s); {
		c := s[i]
		if charClass[c]&cPlain != 0 {
			n++
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch {
			case c == ' ' && lit:
				n += 6
			case c == ' ', c == '_' && lit:
				n++
			case c == '_', isDelim(c), c == '\n', c == '\t', c == '\r':
				n += 2
			case c < ' ' || c == 0x7f:
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6
		case unicode.IsSpace(r) || unicode.IsControl(r):
			n += uSize(r)
		default:
			n += size
		}
		i += size
	}
	return n
}

// MapKeySize returns the length of the canonical text of a map key.
func MapKeySize(k string) int {
	if k == "" {
		return 2
	}
	n := 0
	for _, r := range k {
		if r < utf8.RuneSelf && isKeyChar(byte(r)) {
			n++
		} else {
			n += uSize(r)
		}
	}
	return n
}

// uSize is the length appendU writes for r.
func uSize(r rune) int {
	if r > 0xFFFF {
		return 12
	}
	return 6
}

// Check reports the error Parse would return, because of l, for the text
// of f with its Meta: nesting deeper than MaxDepth, more than MaxElements
// values, or more than MaxFrameBytes bytes (E1001). It walks f once
// without rendering it, so an encoder can make sure a decoder with the
// same limits accepts what it writes.
func (l Limits) Check(f *Frame) error {
	l = l.withDefaults()
	var m frameMeasure
	size := len(f.Agent) + len(f.Intent) + len(f.Op) + len("@>:{}") + m.params(f.Params)
	if len(f.Meta) > 0 {
		size += len("[]") + m.params(f.Meta)
	}
	switch {
	case m.depth > l.MaxDepth:
		return errorf(CodeParse, -1, "nesting deeper than %d levels", l.MaxDepth)
	case m.elems > l.MaxElements:
		return errorf(CodeParse, -1, "frame holds more than %d values", l.MaxElements)
	case size > l.MaxFrameBytes:
		return errorf(CodeParse, -1, "frame of %d bytes exceeds the limit of %d", size, l.MaxFrameBytes)
	}
	return nil
}

// Extent is how large a value is by the measures Limits bound.
type Extent struct {
	Bytes    int // length of the canonical text
	Depth    int // nesting of arrays and maps: 0 for a scalar, 1 for a flat array
	Elements int // values, as the parser counts them (a pair counts itself and its value)
}

// MeasureValue returns v's Extent.
func MeasureValue(v Value) Extent {
	var m frameMeasure
	n := m.value(v, 0)
	return Extent{Bytes: n, Depth: m.depth, Elements: m.elems}
}

// frameMeasure collects what Limits bound while walking a frame's values
// the way the parser reads them.
type frameMeasure struct {
	depth int // deepest container level seen
	elems int // values, counted as the parser's count()
}

// params walks a frame's params (or meta) and returns the size of their
// text between the brackets: key:value pairs and the separators between
// them.
func (m *frameMeasure) params(ps []Field) int {
	n := separators(len(ps))
	for _, p := range ps {
		n += len(p.Key) + 1 + m.value(p.Val, 0)
	}
	return n
}

// value walks v at container level depth and returns its canonical size.
func (m *frameMeasure) value(v Value, depth int) int {
	m.elems++
	switch v.Kind {
	case KindBool:
		if v.Bool {
			return 4
		}
		return 5
	case KindInt, KindDecimal:
		return len(v.Str)
	case KindNumber:
		return 2 + len(v.Str)
	case KindString:
		return StringSize(v.Str)
	case KindRef, KindAgent:
		return 1 + len(v.Str)
	case KindArray:
		depth = m.enter(depth)
		n := 2 + separators(len(v.List))
		for _, e := range v.List {
			n += m.value(e, depth)
		}
		return n
	case KindPair:
		// The parser counts the pair and its value.
		if len(v.Fields) == 1 {
			return len(v.Fields[0].Key) + 1 + m.value(v.Fields[0].Val, depth)
		}
	case KindMap:
		depth = m.enter(depth)
		n := 2 + separators(len(v.Fields))
		for _, f := range v.Fields {
			n += MapKeySize(f.Key) + 1 + m.value(f.Val, depth)
		}
		return n
	}
	return 1 // null, and what AppendValue writes as null
}

// enter records a container opened at level depth and returns the level of
// its elements.
func (m *frameMeasure) enter(depth int) int {
	depth++
	m.depth = max(m.depth, depth)
	return depth
}

// separators is how many separators stand between n elements.
func separators(n int) int { return max(n-1, 0) }
