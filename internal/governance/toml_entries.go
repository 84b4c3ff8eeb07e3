package governance

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Cargo.toml names the files and directories cargo builds from in TOML,
// whose keys and values take many spellings: a quoted key ("path" =, or
// "p\u0061th" =) is the bare one, a dotted key (rb.path =) an inline
// table's, an array runs over lines. tomlEntries reads a TOML document as
// a list of its values, each with its whole key (the table it is in and
// its own dotted key, every part unquoted), so that what a manifest names
// is read once, as cargo reads it, whatever its spelling.

// tomlEntry is one value of a TOML document: a string (str set), or any
// other scalar (its text in raw); an array's elements are entries of the
// array's key.
type tomlEntry struct {
	key []string
	str string
	// isStr says the value is a string.
	isStr bool
	// raw is the text of a value that is no string (true, 1, a date).
	raw string
}

// tomlReader reads one TOML document.
type tomlReader struct {
	s   string
	i   int
	out []tomlEntry
}

// tomlEntries returns the values of the TOML document text, or an error
// saying where it is no TOML the bridge reads.
func tomlEntries(text string) ([]tomlEntry, error) {
	r := &tomlReader{s: strings.TrimPrefix(text, "\ufeff")}
	var table []string
	for {
		r.skipBlank(true)
		if r.i >= len(r.s) {
			return r.out, nil
		}
		if r.s[r.i] == '[' {
			r.i++
			arr := r.i < len(r.s) && r.s[r.i] == '['
			if arr {
				r.i++
			}
			k, err := r.key()
			if err != nil {
				return nil, err
			}
			if !r.eat(']') || arr && !r.eat(']') {
				return nil, r.errorf("a table header is not closed")
			}
			table = k
		} else {
			k, err := r.key()
			if err != nil {
				return nil, err
			}
			if !r.eat('=') {
				return nil, r.errorf("a key has no value")
			}
			if err := r.value(append(table[:len(table):len(table)], k...)); err != nil {
				return nil, err
			}
		}
		r.skipBlank(false)
		if r.i < len(r.s) && r.s[r.i] != '\n' && r.s[r.i] != '\r' {
			return nil, r.errorf("more follows a value on its line")
		}
	}
}

// errorf returns an error naming the line the reader is on.
func (r *tomlReader) errorf(format string, a ...any) error {
	return fmt.Errorf("line %d: %s", strings.Count(r.s[:min(r.i, len(r.s))], "\n")+1, fmt.Sprintf(format, a...))
}

// skipBlank skips spaces, tabs and comments, and line ends too when lines
// is set.
func (r *tomlReader) skipBlank(lines bool) {
	for r.i < len(r.s) {
		switch c := r.s[r.i]; {
		case c == ' ' || c == '\t':
			r.i++
		case lines && (c == '\n' || c == '\r'):
			r.i++
		case c == '#':
			for r.i < len(r.s) && r.s[r.i] != '\n' {
				r.i++
			}
		default:
			return
		}
	}
}

// eat skips blanks and then c, reporting whether c was there.
func (r *tomlReader) eat(c byte) bool {
	r.skipBlank(false)
	if r.i < len(r.s) && r.s[r.i] == c {
		r.i++
		return true
	}
	return false
}

// isBareKeyByte reports whether c may be part of a bare key.
func isBareKeyByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// key reads a dotted key, each part bare, "basic" or 'literal'.
func (r *tomlReader) key() ([]string, error) {
	var out []string
	for {
		r.skipBlank(false)
		if r.i >= len(r.s) {
			return nil, r.errorf("a key is cut off")
		}
		switch c := r.s[r.i]; {
		case c == '"' || c == '\'':
			if strings.HasPrefix(r.s[r.i:], `"""`) || strings.HasPrefix(r.s[r.i:], `'''`) {
				return nil, r.errorf("a key is a multi-line string")
			}
			s, err := r.str()
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		case isBareKeyByte(c):
			j := r.i
			for r.i < len(r.s) && isBareKeyByte(r.s[r.i]) {
				r.i++
			}
			out = append(out, r.s[j:r.i])
		default:
			return nil, r.errorf("no key where one is due")
		}
		if !r.eat('.') {
			return out, nil
		}
	}
}

// value reads the value of key: a string, an array, an inline table or
// another scalar.
func (r *tomlReader) value(key []string) error {
	r.skipBlank(false)
	if r.i >= len(r.s) {
		return r.errorf("a value is cut off")
	}
	switch r.s[r.i] {
	case '"', '\'':
		s, err := r.str()
		if err != nil {
			return err
		}
		r.out = append(r.out, tomlEntry{key: key, str: s, isStr: true})
	case '[':
		r.i++
		for {
			r.skipBlank(true)
			if r.i < len(r.s) && r.s[r.i] == ']' {
				r.i++
				return nil
			}
			if err := r.value(key); err != nil {
				return err
			}
			r.skipBlank(true)
			if r.i < len(r.s) && r.s[r.i] == ',' {
				r.i++
				continue
			}
			if r.i < len(r.s) && r.s[r.i] == ']' {
				r.i++
				return nil
			}
			return r.errorf("an array is not closed")
		}
	case '{':
		r.i++
		for {
			// Newlines inside an inline table are read as TOML 1.1 reads them.
			r.skipBlank(true)
			if r.i < len(r.s) && r.s[r.i] == '}' {
				r.i++
				return nil
			}
			k, err := r.key()
			if err != nil {
				return err
			}
			if !r.eat('=') {
				return r.errorf("a key has no value")
			}
			if err := r.value(append(key[:len(key):len(key)], k...)); err != nil {
				return err
			}
			r.skipBlank(true)
			if r.i < len(r.s) && r.s[r.i] == ',' {
				r.i++
				continue
			}
			if r.i < len(r.s) && r.s[r.i] == '}' {
				r.i++
				return nil
			}
			return r.errorf("an inline table is not closed")
		}
	default:
		j := r.i
		for r.i < len(r.s) && !strings.ContainsRune(",]}#\r\n", rune(r.s[r.i])) {
			r.i++
		}
		raw := strings.TrimSpace(r.s[j:r.i])
		if raw == "" {
			return r.errorf("no value where one is due")
		}
		r.out = append(r.out, tomlEntry{key: key, raw: raw})
	}
	return nil
}

// str reads a string: "basic" (with escapes), 'literal', or either
// tripled over lines.
func (r *tomlReader) str() (string, error) {
	q := r.s[r.i]
	multi := strings.HasPrefix(r.s[r.i:], strings.Repeat(string(q), 3))
	if multi {
		r.i += 3
		// A newline right after the opening quotes is not the string's.
		if strings.HasPrefix(r.s[r.i:], "\r\n") {
			r.i += 2
		} else if strings.HasPrefix(r.s[r.i:], "\n") {
			r.i++
		}
	} else {
		r.i++
	}
	var b strings.Builder
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case multi && strings.HasPrefix(r.s[r.i:], strings.Repeat(string(q), 3)):
			r.i += 3
			// Up to two more quotes end the string's text.
			for k := 0; k < 2 && r.i < len(r.s) && r.s[r.i] == q; k++ {
				b.WriteByte(q)
				r.i++
			}
			return b.String(), nil
		case !multi && c == q:
			r.i++
			return b.String(), nil
		case !multi && (c == '\n' || c == '\r'):
			return "", r.errorf("a string runs past its line")
		case q == '"' && c == '\\':
			if err := r.escape(&b, multi); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			r.i++
		}
	}
	return "", r.errorf("a string is not closed")
}

// escape reads one escape of a basic string into b.
func (r *tomlReader) escape(b *strings.Builder, multi bool) error {
	r.i++ // the backslash
	if r.i >= len(r.s) {
		return r.errorf("a string is not closed")
	}
	c := r.s[r.i]
	r.i++
	simple := map[byte]byte{'b': '\b', 't': '\t', 'n': '\n', 'f': '\f', 'r': '\r', 'e': 0x1b, '"': '"', '\\': '\\'}
	if v, ok := simple[c]; ok {
		b.WriteByte(v)
		return nil
	}
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
	switch {
	case digits > 0:
		if r.i+digits > len(r.s) {
			return r.errorf("an escape is cut off")
		}
		n, err := strconv.ParseUint(r.s[r.i:r.i+digits], 16, 32)
		if err != nil || !utf8.ValidRune(rune(n)) {
			return r.errorf("an escape is no character")
		}
		r.i += digits
		b.WriteRune(rune(n))
		return nil
	case multi && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
		// A line-ending backslash drops the white space up to the next text.
		r.i--
		for r.i < len(r.s) && strings.ContainsRune(" \t\r\n", rune(r.s[r.i])) {
			r.i++
		}
		return nil
	}
	return r.errorf("an escape \\%c is no TOML escape", c)
}
