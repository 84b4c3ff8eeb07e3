package audit

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Almost every string a review prints was chosen by the agent: tool titles,
// commands, session ids, paths, even a policy's reason quotes them. A
// terminal obeys control characters in them: ESC starts a colour or moves
// the cursor, CR returns to the start of the row, a newline starts a new
// row, U+202E reverses the text that follows, U+2028 breaks the line in
// some terminals and editors. Other characters print as nothing (a
// variation selector, a Hangul filler), so that "sess-1" and "sess-1"
// followed by U+FE0F read as the same session id. Any of them lets the agent print a deny row
// as a green approval or add a session that never existed. Printable is
// applied to every string from the log before it reaches a human view or
// an error message, so the agent's text can only ever be text.

// Printable returns s with every character a terminal would act on
// instead of print written as a visible escape: C0 controls (including
// newline, carriage return and tab) and DEL as \n, \r, \t or \xNN, C1
// controls, Unicode format characters (bidi overrides and isolates,
// zero-width characters, the BOM), the other default-ignorable code points
// (variation selectors, Hangul fillers, the combining grapheme joiner),
// the braille blank (drawn empty, but not white space, so it outlives the
// views' folding of spaces and could pad the agent's text into columns of
// a row of its own where a long row wraps) and line and paragraph
// separators as \u{XXXX}, and bytes that are not UTF-8 as \xNN.
func Printable(s string) string {
	i := plainPrefix(s, utf8.DecodeRuneInString)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !needsEscape(r, size) {
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u{%04X}`, r)
		}
		i += size
	}
	return b.String()
}

// plainPrefix returns how many bytes s starts with that need no escape,
// decoding its characters with decode (utf8.DecodeRuneInString for a
// string, utf8.DecodeRune for bytes).
func plainPrefix[T string | []byte](s T, decode func(T) (rune, int)) int {
	i := 0
	for i < len(s) {
		r, size := decode(s[i:])
		if needsEscape(r, size) {
			break
		}
		i += size
	}
	return i
}

// needsEscape reports whether the rune r (size bytes of UTF-8) must not
// reach a terminal as it is.
func needsEscape(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r <= 0x9f: // C1
		return true
	case r == '\u2028' || r == '\u2029':
		return true
	case r == '\u2800': // braille blank: a graphic character most fonts draw empty
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// printableError is an error whose text is made printable.
type printableError struct{ err error }

func (e printableError) Error() string { return Printable(e.err.Error()) }
func (e printableError) Unwrap() error { return e.err }

// PrintableError returns err with its message made printable (see
// Printable), for errors that quote the log's content; nil stays nil.
func PrintableError(err error) error {
	if err == nil {
		return nil
	}
	return printableError{err}
}

// Quoted returns s as it is when it is a plain token (letters, digits and
// ._:@/+=- only, at most 128 bytes), else in double quotes with every
// character that is not printable ASCII escaped (strconv.QuoteToASCII).
// Headings and the sessions table use it for ids and names the agent
// chose, so that text in them cannot pass for the heading's own words
// ("sess-1  12 events, 0 denied"), one id cannot pass for another that
// differs by a character that prints as nothing (U+FE0F) or looks the
// same (a Cyrillic е), and a cell is as wide on a terminal as it has
// bytes: a combining mark (no column) or a wide character (two) would
// move the columns after it under other headings.
func Quoted(s string) string {
	if s != "" && len(s) <= 128 && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:@/+=-", r))
	}) < 0 {
		return s
	}
	return strconv.QuoteToASCII(s)
}

// PrintableJSON returns the JSON text b with every character Printable
// would escape written as a JSON escape instead (\u001b, \u202e, a
// surrogate pair for \U000E0041), and bytes that are not UTF-8 as
// \ufffd, the character a JSON decoder reads them as. Such characters
// are valid only inside JSON strings, where the escape is the same
// character: the text decodes to the same value, but is no longer the
// bytes the log holds (a record written so no longer verifies). It is for
// JSON that reaches a terminal.
func PrintableJSON(b []byte) []byte {
	i := plainPrefix(b, utf8.DecodeRune)
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if !needsEscape(r, size) {
			out = append(out, b[i-size:i]...)
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != unicode.ReplacementChar {
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			continue
		}
		out = fmt.Appendf(out, `\u%04x`, r)
	}
	return out
}

// PrintableLines returns a writer that writes to w what it is given with
// each line made printable (see Printable), the newlines that end lines
// kept: for a command's human output and error messages, which quote
// commands, paths and rules that may be the agent's. Each write is made
// printable on its own (fmt writes whole strings), so a character split
// across two writes is written as the escapes of its bytes.
func PrintableLines(w io.Writer) io.Writer { return printableLines{w} }

type printableLines struct{ w io.Writer }

func (p printableLines) Write(b []byte) (int, error) {
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		lines[i] = Printable(l)
	}
	if _, err := io.WriteString(p.w, strings.Join(lines, "\n")); err != nil {
		return 0, err
	}
	return len(b), nil
}
