package shellcmd

import "strings"

// ansiC decodes the text of a $'...' string as bash 5.2 does (ansicstr in
// its lib/sh/strtrans.c, as $'...' calls it). mvdan.cc/sh's decoder left
// what it does not know as written: bash reads \x{HH...} (any number of
// hex digits, the value's low byte) and \cX (a control character), so
// cat $'.\x{65}nv' reads .env and echo x > $'GOVERNANCE.\x{6d}d' writes the
// policy, where the grammar saw other names. A NUL byte is kept; the
// word reads it as bash and zsh do (nul_readings.go).
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		c = s[i]
		switch c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(c - '0')
			for n := 0; n < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; n++ {
				i++
				v = v*8 + int(s[i]-'0')
			}
			b.WriteByte(byte(v))
		case 'x':
			brace := i+1 < len(s) && s[i+1] == '{'
			if brace {
				i++
			}
			v, n := 0, 0
			for ; n < 2 && i+1 < len(s) && hexDigit(s[i+1]) >= 0; n++ {
				i++
				v = v*16 + hexDigit(s[i])
			}
			switch {
			case brace:
				// Every hex digit up to the brace; only the low byte
				// counts, so it is all that is kept.
				for i+1 < len(s) && hexDigit(s[i+1]) >= 0 {
					i++
					v = (v*16 + hexDigit(s[i])) & 0xff
				}
				if i+1 < len(s) && s[i+1] == '}' {
					i++
				}
			case n == 0:
				b.WriteString(`\x`)
				continue
			}
			b.WriteByte(byte(v))
		case 'u', 'U':
			most := 4
			if c == 'U' {
				most = 8
			}
			v, n := 0, 0
			for ; n < most && i+1 < len(s) && hexDigit(s[i+1]) >= 0; n++ {
				i++
				v = v*16 + hexDigit(s[i])
			}
			switch {
			case n == 0:
				b.WriteByte('\\')
				b.WriteByte(c)
			case v <= 0x7f:
				b.WriteByte(byte(v))
			default:
				b.WriteString(utf8Bytes(v))
			}
		case 'c':
			if i+1 == len(s) {
				b.WriteString(`\c`)
				continue
			}
			i++
			x := s[i]
			if x == '\\' && i+1 < len(s) && s[i+1] == '\\' {
				i++
			}
			if x == '?' {
				b.WriteByte(0x7f)
			} else {
				if x >= 'a' && x <= 'z' {
					x -= 'a' - 'A'
				}
				b.WriteByte(x & 0x1f)
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// hexDigit returns the value of the hex digit c, -1 for any other byte.
func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// utf8Bytes encodes v as bash's u32toutf8 does: UTF-8's scheme for any
// value up to 0x7fffffff, surrogates and values past U+10FFFF included (not
// valid UTF-8, which the bridge refuses in a path).
func utf8Bytes(v int) string {
	switch {
	case v < 0x800:
		return string([]byte{byte(0xc0 | v>>6), byte(0x80 | v&0x3f)})
	case v < 0x10000:
		return string([]byte{byte(0xe0 | v>>12), byte(0x80 | v>>6&0x3f), byte(0x80 | v&0x3f)})
	case v < 0x200000:
		return string([]byte{byte(0xf0 | v>>18), byte(0x80 | v>>12&0x3f), byte(0x80 | v>>6&0x3f), byte(0x80 | v&0x3f)})
	case v < 0x4000000:
		return string([]byte{byte(0xf8 | v>>24), byte(0x80 | v>>18&0x3f), byte(0x80 | v>>12&0x3f), byte(0x80 | v>>6&0x3f), byte(0x80 | v&0x3f)})
	}
	return string([]byte{byte(0xfc | v>>30&1), byte(0x80 | v>>24&0x3f), byte(0x80 | v>>18&0x3f), byte(0x80 | v>>12&0x3f), byte(0x80 | v>>6&0x3f), byte(0x80 | v&0x3f)})
}
