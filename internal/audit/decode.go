package audit

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// fastDecode decodes data, one JSON value, to the tree json.Unmarshal into
// an any would give (map[string]any, []any, string, float64, bool, nil),
// reporting false for anything it does not handle itself: invalid JSON,
// nesting deeper than maxDepth, and without marks a number out of a
// double's range (with marks, it is a numberMarker). The caller then
// decodes with encoding/json, which reports the error or decodes the rare
// case. It exists because decoding a tool call's output
// with encoding/json (validate, then decode) was a fifth of the bridge's
// CPU with the audit log on.
func fastDecode(data []byte, marks bool) (any, bool) {
	d := fastDecoder{jsonCursor: jsonCursor{data: data}, marks: marks}
	v, ok := d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	return v, d.i == len(d.data)
}

type fastDecoder struct {
	jsonCursor
	// digest, when not zero, is the longest JSON text of a string value
	// decoded; a longer one becomes a *digestText (a tool's output, see
	// content.go), and diffs' texts up to diffCap are kept (keptDiff
	// says one was).
	digest, diffCap int
	keptDiff        bool
	// marks says a number out of a double's range is read as a
	// numberMarker rather than refused (see number.go).
	marks bool
}

// maxDepth is the deepest nesting fastDecode takes, well inside
// encoding/json's limit (10,000); deeper input is left to encoding/json.
const maxDepth = 1000

func (d *fastDecoder) value(depth int) (any, bool) {
	d.space()
	if d.i >= len(d.data) || depth > maxDepth {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '{':
		d.i++
		m := make(map[string]any)
		if d.empty('}') {
			return m, true
		}
		for {
			if !d.atName() {
				return nil, false
			}
			k, ok := d.str()
			if !ok || !d.colon() {
				return nil, false
			}
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			m[k] = v
			if more, ok := d.separator('}'); !ok {
				return nil, false
			} else if !more {
				if d.digest > 0 {
					d.keepDiff(m)
				}
				return m, true
			}
		}
	case c == '[':
		d.i++
		a := []any{}
		if d.empty(']') {
			return a, true
		}
		for {
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			a = append(a, v)
			if more, ok := d.separator(']'); !ok {
				return nil, false
			} else if !more {
				return a, true
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
	if err != nil || d.marks && !keptExactly(s[start:i], f) {
		// The text is of JSON's grammar, so the error is ErrRange: a
		// magnitude beyond the largest double. With marks, a number the
		// double does not keep (-0, 1e-400, 2^53+1) is a marker too.
		if !d.marks {
			return nil, false
		}
		d.i = i
		return numberMarker(s[start:i]), true
	}
	d.i = i
	return f, true
}

// str reads a string at d.data[d.i] == '"', decoded as encoding/json
// decodes it (invalid UTF-8 and lone surrogate escapes become U+FFFD).
func (d *fastDecoder) str() (string, bool) {
	lit, ok := d.stringText()
	if !ok {
		return "", false
	}
	return unquote(lit), true
}

// stringText reads the JSON text of a valid string at d.data[d.i] == '"',
// quotes included, and moves past it.
func (d *fastDecoder) stringText() ([]byte, bool) {
	end, ok := rawjson.ValidString(d.data, d.i)
	if !ok {
		return nil, false
	}
	lit := d.data[d.i:end]
	d.i = end
	return lit, true
}

// unquote decodes lit, a valid JSON string literal, as encoding/json does.
func unquote(lit []byte) string {
	inner := lit[1 : len(lit)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	b, _ := rawjson.AppendUnquoted(make([]byte, 0, len(inner)), lit, 0)
	return string(b)
}
