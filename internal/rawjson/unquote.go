package rawjson

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// AppendUnquoted appends the text of the JSON string literal lit (quotes
// included) to dst, decoded as encoding/json decodes it: invalid UTF-8
// bytes and lone surrogate escapes become U+FFFD. With limit > 0 it stops
// once it has appended at least limit bytes (a character or an escape is
// never split, but a run of plain text may end inside a word), and
// complete says whether that was all of the text. It allocates nothing
// beyond dst's growth, so that features can decode long strings straight
// into buffers they keep. lit must be a valid JSON string (the bridge
// checked the message); anything malformed in it is copied as it is.
func AppendUnquoted(dst, lit []byte, limit int) (out []byte, complete bool) {
	if len(lit) < 2 {
		return dst, true
	}
	s := lit[1 : len(lit)-1]
	start := len(dst)
	full := func() bool { return limit > 0 && len(dst)-start >= limit }
	for i := 0; i < len(s); {
		if full() {
			return dst, false
		}
		// Copy the run up to the next escape at once: found with
		// bytes.IndexByte and checked with utf8.Valid, both of which take
		// many bytes a step, rather than byte by byte.
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 {
			j = len(s)
		} else {
			j += i
		}
		if limit > 0 {
			j = min(j, i+limit-(len(dst)-start))
			for j < len(s) && j > i && !utf8.RuneStart(s[j]) {
				j++ // end the run on a character's first byte
			}
		}
		dst = appendText(dst, s[i:j])
		i = j
		if i >= len(s) || s[i] != '\\' {
			continue
		}
		// An escape.
		if i+1 >= len(s) {
			return append(dst, s[i:]...), true
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(s, i+2)
			if !ok {
				return append(dst, s[i:]...), true
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r2, ok := lowSurrogate(s, i); ok {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						dst = utf8.AppendRune(dst, dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default:
			dst = append(dst, s[i], e)
		}
		i += 2
	}
	return dst, true
}

// appendText appends run, text without escapes, with each invalid UTF-8
// byte replaced by U+FFFD as encoding/json does.
func appendText(dst, run []byte) []byte {
	if utf8.Valid(run) {
		return append(dst, run...)
	}
	for i := 0; i < len(run); {
		r, n := utf8.DecodeRune(run[i:])
		if r == utf8.RuneError && n == 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
		} else {
			dst = append(dst, run[i:i+n]...)
		}
		i += n
	}
	return dst
}

// lowSurrogate reads a \uXXXX escape at s[i:] holding any surrogate.
func lowSurrogate(s []byte, i int) (rune, bool) {
	if i+1 >= len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return 0, false
	}
	r, ok := hex4(s, i+2)
	return r, ok && utf16.IsSurrogate(r)
}

// hex4 reads four hex digits at s[i:].
func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
