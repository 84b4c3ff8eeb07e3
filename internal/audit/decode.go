package audit

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// fastDecode decodes data, one JSON value, to the tree json.Unmarshal into
// an any would give (map[string]any, []any, string, float64, bool, nil),
// reporting false for anything it does not handle itself: invalid JSON, a
// number out of range, nesting deeper than maxDepth. The
// caller then decodes with encoding/json, which reports the error or
// decodes the rare case. It exists because decoding a tool call's output
// with encoding/json (validate, then decode) was a fifth of the bridge's
// CPU with the audit log on.
func fastDecode(data []byte) (any, bool) {
	d := fastDecoder{data: data}
	v, ok := d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	return v, d.i == len(d.data)
}

type fastDecoder struct {
	data []byte
	i    int
	// digest, when not zero, is the longest JSON text of a string value
	// decoded; a longer one becomes a *digestText (a tool's output, see
	// content.go), and diffs' texts up to diffCap are kept (keptDiff
	// says one was).
	digest, diffCap int
	keptDiff        bool
}

// maxDepth is the deepest nesting fastDecode takes, well inside
// encoding/json's limit (10,000); deeper input is left to encoding/json.
const maxDepth = 1000

func (d *fastDecoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *fastDecoder) value(depth int) (any, bool) {
	d.space()
	if d.i >= len(d.data) || depth > maxDepth {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '{':
		d.i++
		m := make(map[string]any)
		d.space()
		if d.i < len(d.data) && d.data[d.i] == '}' {
			d.i++
			return m, true
		}
		for {
			d.space()
			if d.i >= len(d.data) || d.data[d.i] != '"' {
				return nil, false
			}
			k, ok := d.str()
			if !ok {
				return nil, false
			}
			d.space()
			if d.i >= len(d.data) || d.data[d.i] != ':' {
				return nil, false
			}
			d.i++
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			m[k] = v
			d.space()
			if d.i >= len(d.data) {
				return nil, false
			}
			switch d.data[d.i] {
			case ',':
				d.i++
			case '}':
				d.i++
				if d.digest > 0 {
					d.keepDiff(m)
				}
				return m, true
			default:
				return nil, false
			}
		}
	case c == '[':
		d.i++
		a := []any{}
		d.space()
		if d.i < len(d.data) && d.data[d.i] == ']' {
			d.i++
			return a, true
		}
		for {
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			a = append(a, v)
			d.space()
			if d.i >= len(d.data) {
				return nil, false
			}
			switch d.data[d.i] {
			case ',':
				d.i++
			case ']':
				d.i++
				return a, true
			default:
				return nil, false
			}
		}
	case c == '"':
		if d.digest > 0 {
			return d.digestString()
		}
		return d.str()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, false
}

func (d *fastDecoder) literal(lit string) bool {
	if len(d.data)-d.i < len(lit) || string(d.data[d.i:d.i+len(lit)]) != lit {
		return false
	}
	d.i += len(lit)
	return true
}

// number reads a number of JSON's grammar as a float64.
func (d *fastDecoder) number() (any, bool) {
	s := d.data
	start := d.i
	i := d.i
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return nil, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return nil, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	f, err := strconv.ParseFloat(string(s[start:i]), 64)
	if err != nil {
		return nil, false
	}
	d.i = i
	return f, true
}

// str reads a string at d.data[d.i] == '"'. Invalid UTF-8 and \u escapes
// of surrogates are left to encoding/json (which replaces them).
func (d *fastDecoder) str() (string, bool) {
	s := d.data
	i := d.i + 1
	var b []byte // nil until the first escape: then the string decoded so far
	run := i     // start of the bytes not yet copied to b
	for i < len(s) {
		c := s[i]
		if plainByte[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			d.i = i + 1
			if b == nil {
				return string(s[run:i]), true
			}
			return string(append(b, s[run:i]...)), true
		case c == '\\':
			if i+1 >= len(s) {
				return "", false
			}
			if b == nil {
				b = make([]byte, 0, i-run+64)
			}
			b = append(b, s[run:i]...)
			switch s[i+1] {
			case '"', '\\', '/':
				b = append(b, s[i+1])
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				if i+6 > len(s) {
					return "", false
				}
				r, err := strconv.ParseUint(string(s[i+2:i+6]), 16, 32)
				if err != nil || utf16.IsSurrogate(rune(r)) {
					return "", false
				}
				b = utf8.AppendRune(b, rune(r))
				i += 6
				run = i
				continue
			default:
				return "", false
			}
			i += 2
			run = i
		case c < 0x20:
			return "", false
		default: // the first byte of a multi-byte character
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				return "", false
			}
			i += size
		}
	}
	return "", false
}

// plainByte marks the bytes a string copies as they are: ASCII other than
// control characters, '"' and '\\'.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
