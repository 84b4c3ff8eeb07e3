package compress

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// appendUnquoted appends the text of the JSON string literal lit (quotes
// included) to dst, decoded as encoding/json decodes it (invalid UTF-8 and
// lone surrogates become U+FFFD), without allocating beyond dst's growth:
// the recorder decodes every chunk of agent output straight into its spool
// and turn buffers. lit must be a valid JSON string (the bridge checked the
// message); anything malformed in it is copied as it is.
func appendUnquoted(dst, lit []byte) []byte {
	if len(lit) < 2 {
		return dst
	}
	s := lit[1 : len(lit)-1]
	for i := 0; i < len(s); {
		// Copy the run up to the next escape at once: found with
		// bytes.IndexByte and checked with utf8.Valid, both of which take
		// many bytes a step, rather than byte by byte.
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 {
			j = len(s)
		} else {
			j += i
		}
		dst = appendText(dst, s[i:j])
		i = j
		if i >= len(s) {
			break
		}
		// An escape.
		if i+1 >= len(s) {
			return append(dst, s[i:]...)
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
				return append(dst, s[i:]...)
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
	return dst
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
