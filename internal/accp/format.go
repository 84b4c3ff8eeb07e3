package accp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Format renders f as one canonical frame line: maps sorted by key, numbers
// canonical, strings escaped. It rejects a frame whose header names or
// param keys do not fit the grammar, or whose param keys repeat.
func Format(f *Frame) (string, error) {
	if err := f.validate(); err != nil {
		return "", err
	}
	return string(AppendFrame(make([]byte, 0, 256), f)), nil
}

// String renders the frame; it is Format without the validation, for
// printing frames that are known to be valid.
func (f *Frame) String() string { return string(AppendFrame(nil, f)) }

func (f *Frame) validate() error {
	if !allOf(f.Agent, isAgentChar) {
		return errorf(CodeParse, -1, "invalid agent id %q", f.Agent)
	}
	if !allOf(f.Intent, isAlpha) {
		return errorf(CodeInvalidIntent, -1, "invalid intent %q", f.Intent)
	}
	if !allOf(f.Op, isOpChar) {
		return errorf(CodeParse, -1, "invalid operation %q", f.Op)
	}
	for _, set := range [][]Field{f.Params, f.Meta} {
		for i, p := range set {
			if !allOf(p.Key, isKeyChar) {
				return errorf(CodeParse, -1, "invalid key %q", p.Key)
			}
			for _, q := range set[:i] {
				if q.Key == p.Key {
					return errorf(CodeParse, -1, "duplicate key %q", p.Key)
				}
			}
			if err := p.Val.validate(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (v Value) validate() error {
	switch v.Kind {
	case KindInt, KindDecimal:
		want := numInt
		if v.Kind == KindDecimal {
			want = numDecimal
		}
		if numberClass(v.Str) != want {
			return errorf(CodeInvalidType, -1, "%s %q is not canonical", v.Kind, v.Str)
		}
	case KindNumber:
		if !isJSONNumber(v.Str) {
			return errorf(CodeInvalidType, -1, "invalid number %q", v.Str)
		}
	case KindRef:
		if !allOf(v.Str, isRefChar) {
			return errorf(CodeParse, -1, "invalid ref key %q", v.Str)
		}
	case KindAgent:
		a, op, _ := strings.Cut(v.Str, ":")
		if !allOf(a, isAgentChar) || (strings.Contains(v.Str, ":") && !allOf(op, isOpChar)) {
			return errorf(CodeParse, -1, "invalid agent reference %q", v.Str)
		}
	case KindPair:
		if len(v.Fields) != 1 || !allOf(v.Fields[0].Key, isKeyChar) {
			return errorf(CodeParse, -1, "a pair needs one key of key characters")
		}
		return v.Fields[0].Val.validate()
	}
	for _, e := range v.List {
		if err := e.validate(); err != nil {
			return err
		}
	}
	if v.Kind == KindMap {
		for _, f := range v.Fields {
			if err := f.Val.validate(); err != nil {
				return err
			}
		}
	}
	return nil
}

func allOf(s string, class func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !class(s[i]) {
			return false
		}
	}
	return true
}

// AppendFrame appends the canonical text of f to dst. It does not validate
// f; use Format for frames built from untrusted parts.
func AppendFrame(dst []byte, f *Frame) []byte {
	dst = append(dst, '@')
	dst = append(dst, f.Agent...)
	dst = append(dst, '>')
	dst = append(dst, f.Intent...)
	dst = append(dst, ':')
	dst = append(dst, f.Op...)
	dst = appendParams(dst, '{', '|', '}', f.Params)
	if len(f.Meta) > 0 {
		dst = appendParams(dst, '[', ',', ']', f.Meta)
	}
	return dst
}

// appendParams appends ps as key:value pairs between open and close,
// separated by sep: a frame's params, or its meta.
func appendParams(dst []byte, open, sep, close byte, ps []Field) []byte {
	dst = append(dst, open)
	for i, p := range ps {
		if i > 0 {
			dst = append(dst, sep)
		}
		dst = append(dst, p.Key...)
		dst = append(dst, ':')
		dst = AppendValue(dst, p.Val)
	}
	return append(dst, close)
}

// AppendValue appends the canonical wire form of v to dst.
func AppendValue(dst []byte, v Value) []byte {
	switch v.Kind {
	case KindNull:
		return append(dst, '~')
	case KindBool:
		if v.Bool {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case KindInt, KindDecimal:
		return append(dst, v.Str...)
	case KindNumber:
		dst = append(dst, `\#`...)
		return append(dst, v.Str...)
	case KindString:
		return appendString(dst, v.Str)
	case KindRef:
		dst = append(dst, '$')
		return append(dst, v.Str...)
	case KindAgent:
		dst = append(dst, '@')
		return append(dst, v.Str...)
	case KindArray:
		dst = append(dst, '[')
		for i, e := range v.List {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendValue(dst, e)
		}
		return append(dst, ']')
	case KindPair:
		if len(v.Fields) == 1 {
			dst = append(dst, v.Fields[0].Key...)
			dst = append(dst, ':')
			return AppendValue(dst, v.Fields[0].Val)
		}
		return append(dst, '~')
	case KindMap:
		fields := v.Fields
		for i := 1; i < len(fields); i++ {
			if fields[i-1].Key > fields[i].Key {
				fields = append([]Field(nil), fields...)
				sortFields(fields)
				break
			}
		}
		dst = append(dst, '{')
		for i, f := range fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendMapKey(dst, f.Key)
			dst = append(dst, ':')
			dst = AppendValue(dst, f.Val)
		}
		return append(dst, '}')
	}
	return append(dst, '~')
}

const hexDigits = "0123456789ABCDEF"

func appendU(dst []byte, r rune) []byte {
	if r > 0xFFFF {
		r -= 0x10000
		dst = appendU(dst, 0xD800+(r>>10))
		return appendU(dst, 0xDC00+(r&0x3FF))
	}
	return append(dst, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}

// AppendMapKey appends the canonical text of k as a map key to dst (as
// AppendValue writes it before the ":").
func AppendMapKey(dst []byte, k string) []byte { return appendMapKey(dst, k) }

func appendMapKey(dst []byte, k string) []byte {
	if k == "" {
		return append(dst, `\'`...)
	}
	for _, r := range k {
		if r < utf8.RuneSelf && isKeyChar(byte(r)) {
			dst = append(dst, byte(r))
		} else {
			dst = appendU(dst, r)
		}
	}
	return dst
}

// needsMarker reports whether the string s, written plainly, would read as
// another type (or as nothing) and so needs the \' string marker.
func needsMarker(s string) bool {
	if s == "" || s == "true" || s == "false" {
		return true
	}
	c := s[0]
	if c == '-' || (c >= '0' && c <= '9') {
		return numberClass(s) != numNone
	}
	return false
}

// literalMode reports whether s is written in the \' form, where "_" is a
// literal underscore: for strings that need the marker anyway and for
// identifiers with underscores and no spaces (end_turn, toolu_01abc), which
// tokenize better that way than with \_ escapes.
func literalMode(s string) bool {
	if needsMarker(s) {
		return true
	}
	return strings.IndexByte(s, '_') >= 0 && strings.IndexByte(s, ' ') < 0
}

func appendString(dst []byte, s string) []byte {
	lit := literalMode(s)
	if lit {
		dst = append(dst, `\'`...)
	}
	for i := 0; i < len(s); {
		c := s[i]
		if charClass[c]&cPlain != 0 {
			// Copy the run of plain bytes at once.
			j := i + 1
			for j < len(s) && charClass[s[j]]&cPlain != 0 {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		if c < utf8.RuneSelf {
			switch {
			case c == ' ' && lit:
				dst = appendU(dst, ' ')
			case c == ' ':
				dst = append(dst, '_')
			case c == '_' && lit:
				dst = append(dst, '_')
			case c == '_':
				dst = append(dst, '\\', '_')
			case isDelim(c):
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c < ' ' || c == 0x7f:
				dst = appendU(dst, rune(c))
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = appendU(dst, utf8.RuneError)
		} else if unicode.IsSpace(r) || unicode.IsControl(r) {
			dst = appendU(dst, r)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}
