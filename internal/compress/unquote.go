package compress

import (
	"bytes"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// appendUnquoted appends the text of the JSON string literal lit to dst
// as rawjson.AppendUnquoted(dst, lit, 0) does (FuzzAppendUnquoted). Agent
// text is mostly valid UTF-8 with a two-byte escape every line or so
// (prose's \n): such a literal is checked for UTF-8 once, not run by run,
// and copied between its escapes. A literal that is not valid UTF-8
// throughout, or holds a \u escape, is left to rawjson.
func appendUnquoted(dst, lit []byte) []byte {
	if len(lit) < 2 {
		return dst
	}
	s := lit[1 : len(lit)-1]
	if !utf8.Valid(s) {
		// Each invalid byte becomes U+FFFD.
		out, _ := rawjson.AppendUnquoted(dst, lit, 0)
		return out
	}
	// Escapes are ASCII, so the runs between them are valid UTF-8 too.
	start := len(dst)
	for {
		j := bytes.IndexByte(s, '\\')
		if j < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:j]...)
		if j+1 >= len(s) {
			return append(dst, s[j:]...)
		}
		c := s[j+1]
		switch c {
		case '"', '\\', '/':
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'u':
			out, _ := rawjson.AppendUnquoted(dst[:start], lit, 0)
			return out
		default:
			if c >= utf8.RuneSelf {
				// Not JSON: rawjson keeps the backslash and the byte
				// after it, splitting the character.
				out, _ := rawjson.AppendUnquoted(dst[:start], lit, 0)
				return out
			}
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
		s = s[j+2:]
	}
}
