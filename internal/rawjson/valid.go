package rawjson

import (
	"encoding/binary"
	"math/bits"
)

// Valid reports whether b is one valid JSON value, with optional white space
// around it. It accepts exactly what encoding/json.Valid accepts (nesting up
// to 10000 levels, no UTF-8 check inside strings), but skips the bodies of
// strings eight bytes at a time, which is where large messages spend their
// bytes.
func Valid(b []byte) bool {
	var n notes
	i := skipSpace(b, 0)
	end, ok := validValue(b, i, 0, &n)
	return ok && skipSpace(b, end) == len(b)
}

// notes is what a validation notes of the strings it checks, on the way.
type notes struct {
	// uesc is set when a string holds a \u escape.
	uesc bool
	// seen is the OR of the bytes the scans of strings read, eight to a
	// word: every byte of every string checked, and maybe some bytes of
	// the document after one. A byte of 0x80 or above sets a bit of
	// highBits in it.
	seen uint64
	// longest is the longest string literal checked, a name or a value.
	longest Span
}

// highBits is the top bit of each byte of a word.
const highBits = 0x8080808080808080

// Facts are what a validation of a document learns of its strings on the
// way, at no cost of its own. The zero value claims nothing.
type Facts struct {
	// NoUEscape says that no string of the document holds a \u escape.
	NoUEscape bool
	// ASCII says that every byte of the document is below 0x80, so that
	// it is valid UTF-8: a valid JSON document has such bytes only inside
	// strings, and the scan of each string read all of its bytes.
	ASCII bool
	// Longest is where the document's longest string literal is, a name
	// or a value (the first of the longest), checked valid: a reader
	// that must step over the document's values again can step over this
	// one without reading it (see KnownRecorder.ResetLongest). Empty when
	// the document has no string.
	Longest Span
}

// Span is where a string literal lies in its document: from its opening
// quote (Start) to just past its closing one (End). The zero Span, whose
// End is not past its Start, is no literal.
type Span struct{ Start, End int }

// facts returns what n says of a document whose every string n saw.
func (n *notes) facts() Facts {
	return Facts{NoUEscape: !n.uesc, ASCII: n.seen&highBits == 0, Longest: n.longest}
}

// validValue checks the value starting at b[i] and returns the offset just
// past it, noting what it sees of its strings in n.
func validValue(b []byte, i, depth int, n *notes) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return validString(b, i, n)
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return 0, false
		}
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == closer {
			return i + 1, true
		}
		for {
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return 0, false
				}
				end, ok := validString(b, i, n)
				if !ok {
					return 0, false
				}
				i = skipSpace(b, end)
				if i >= len(b) || b[i] != ':' {
					return 0, false
				}
				i = skipSpace(b, i+1)
			}
			end, ok := validValue(b, i, depth+1, n)
			if !ok {
				return 0, false
			}
			i = skipSpace(b, end)
			if i < len(b) && b[i] == closer {
				return i + 1, true
			}
			if i >= len(b) || b[i] != ',' {
				return 0, false
			}
			i = skipSpace(b, i+1)
		}
	case c == 't':
		return validLiteral(b, i, "true")
	case c == 'f':
		return validLiteral(b, i, "false")
	case c == 'n':
		return validLiteral(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return validNumber(b, i)
	}
	return 0, false
}

func validLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

func validNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// validString checks the string starting at b[i] == '"' and returns the
// offset just past it, noting what it sees in n. The bytes it does not
// leave to stringRun, which notes them in seen, are ASCII: quotes,
// backslashes, escapes and control characters.
func validString(b []byte, i int, n *notes) (int, bool) {
	start := i
	i++
	for {
		var seen uint64
		i, seen = stringRun(b, i)
		n.seen |= seen
		if i >= len(b) {
			return 0, false
		}
		switch c := b[i]; {
		case c == '"':
			if i+1-start > n.longest.End-n.longest.Start {
				n.longest = Span{start, i + 1}
			}
			return i + 1, true
		case c == '\\':
			if i+1 >= len(b) {
				return 0, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				n.uesc = true
				if i+6 > len(b) {
					return 0, false
				}
				for _, h := range b[i+2 : i+6] {
					if !isHex(h) {
						return 0, false
					}
				}
				i += 6
			default:
				return 0, false
			}
		default: // a control character
			return 0, false
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// plainRunWords returns the offset of the first byte at or after i that is
// '"', '\\' or a control character (below 0x20), or len(b). It tests eight
// bytes at a time with the classic "has a byte less than n" word trick; it is
// plainRun on platforms without a vector version and finishes the last bytes
// on those with one.
func plainRunWords(b []byte, i int) int {
	end, _ := plainRunWordsSeen(b, i)
	return end
}

// plainRunWordsSeen is plainRunWords that also returns the OR of the
// bytes it read, eight to a word: every byte from i to end, and the rest
// of the word end is in.
func plainRunWordsSeen(b []byte, i int) (end int, seen uint64) {
	for i+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:])
		seen |= w
		if m := special(w); m != 0 {
			return i + firstFlagged(m), seen
		}
		i += 8
	}
	for i < len(b) {
		c := b[i]
		seen |= uint64(c)
		if c == '"' || c == '\\' || c < 0x20 {
			return i, seen
		}
		i++
	}
	return i, seen
}

// stringRunWords is stringRun eight bytes at a time: it is stringRun on
// platforms without a vector version and finishes the last bytes on those
// with one. seen is the OR of the bytes it read, eight to a word: every
// byte from i to end but the escaped byte of a two-byte escape (one of
// " \\ / b f n r t), and maybe bytes after end.
func stringRunWords(b []byte, i int) (end int, seen uint64) {
	for {
		var s uint64
		i, s = plainRunWordsSeen(b, i)
		seen |= s
		if i+1 >= len(b) || b[i] != '\\' || !simpleEscape(b[i+1]) {
			return i, seen
		}
		i += 2
	}
}

// simpleEscape reports whether c follows the backslash of a two-byte
// escape: one of " \ / b f n r t.
func simpleEscape(c byte) bool {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	}
	return false
}

// special is non-zero if one of the eight bytes in w is '"', '\\' or below
// 0x20: it sets the top bit of each such byte. Flipping bit 1 of every byte
// turns '"' (0x22) into 0x20 and keeps control characters below 0x20, while
// no other byte lands below 0x21, so one "less than 0x21" test covers both.
// A byte after a flagged one may be flagged too (the subtraction's borrow
// runs on into it), but never a byte before the first true one: a borrow
// only starts at a byte that is below the bound. So the lowest flagged byte
// (the first in memory, w being read little-endian) is exact; see
// firstFlagged.
func special(w uint64) uint64 {
	const lo = 0x0101010101010101
	const hi = 0x8080808080808080
	x := w ^ (lo * 0x02)
	s := w ^ (lo * '\\')
	return ((x-lo*0x21)&^x | (s-lo)&^s) & hi
}

// firstFlagged returns the index in its word of the first byte special
// flagged in m (m != 0).
func firstFlagged(m uint64) int { return bits.TrailingZeros64(m) / 8 }

// ValidMembers is Valid that also reports the members of a top-level object
// in the same pass: when b holds an object, fn is called for each of its
// members in document order, with the member's name as it is written
// (quotes and escapes included; see Key) and its raw value, both sub-slices
// of b. fn may be called for members before a later part of b turns out to
// be invalid, so callers must discard what fn saw when ValidMembers returns
// false. For any other value it calls fn never and returns Valid(b).
func ValidMembers(b []byte, fn func(name, value []byte)) bool {
	var n notes
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return Valid(b)
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		nameEnd, ok := validString(b, i, &n)
		if !ok {
			return false
		}
		name := b[i:nameEnd]
		i = skipSpace(b, nameEnd)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		vstart := skipSpace(b, i+1)
		vend, ok := validValue(b, vstart, 1, &n)
		if !ok {
			return false
		}
		fn(name, b[vstart:vend])
		i = skipSpace(b, vend)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return skipSpace(b, i+1) == len(b)
		}
		if b[i] != ',' {
			return false
		}
		i = skipSpace(b, i+1)
	}
}

// Key decodes a member name as ValidMembers reports it (a valid JSON
// string, quotes included). Names without escapes, the usual case, decode
// without allocating when the result is only compared, as in
// switch string(Key(name)).
func Key(name []byte) []byte {
	inner := name[1 : len(name)-1]
	for _, c := range inner {
		if c == '\\' {
			k, _ := decodeKey(name)
			return []byte(k)
		}
	}
	return inner
}

// ValidNames is Valid that also reports, in the same pass, the members of
// the objects nested up to maxDepth levels deep (1: the top-level object's
// only): fn gets the depth of the object a member is in, the offset in b of
// that object's opening brace (members with the same offset share an
// object), the offset of the member's value, the member's name as written
// (quotes and escapes included; see Key) and its raw value, once the value
// has been checked. fn may be called
// before a later part of b turns out to be invalid, so callers must discard
// what fn saw when ValidNames returns false.
func ValidNames(b []byte, maxDepth int, fn func(depth, object, at int, name, value []byte)) bool {
	ok, _ := ValidNamesFacts(b, maxDepth, fn)
	return ok
}

// ValidNamesFacts is ValidNames that also reports what it learns of b's
// strings on the way at no cost (see Facts): whether one, a name or a
// value, holds a \u escape (a reader that must treat such strings apart,
// their decoded text differing from their bytes by more than the
// two-character escapes, need not search b for them), whether every byte
// of b is ASCII (then b is valid UTF-8 without a second reading), and
// where its longest string literal is. The facts mean nothing when ok is
// false.
func ValidNamesFacts(b []byte, maxDepth int, fn func(depth, object, at int, name, value []byte)) (ok bool, facts Facts) {
	w := validWalk{max: maxDepth, fn: fn}
	end, ok := w.value(b, skipSpace(b, 0), 0)
	return ok && skipSpace(b, end) == len(b), w.notes.facts()
}

type validWalk struct {
	max int
	fn  func(depth, object, at int, name, value []byte)
	// notes is what the walk saw of the strings it checked.
	notes notes
}

func (w *validWalk) value(b []byte, i, depth int) (int, bool) {
	if i >= len(b) || depth >= w.max || (b[i] != '{' && b[i] != '[') {
		return validValue(b, i, depth, &w.notes)
	}
	open := i
	obj := b[i] == '{'
	closer := byte(']')
	if obj {
		closer = '}'
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == closer {
		return i + 1, true
	}
	for {
		var name []byte
		if obj {
			if i >= len(b) || b[i] != '"' {
				return 0, false
			}
			end, ok := validString(b, i, &w.notes)
			if !ok {
				return 0, false
			}
			name = b[i:end]
			i = skipSpace(b, end)
			if i >= len(b) || b[i] != ':' {
				return 0, false
			}
			i = skipSpace(b, i+1)
		}
		var end int
		var ok bool
		if depth+1 >= w.max || i >= len(b) || (b[i] != '{' && b[i] != '[') {
			end, ok = validValue(b, i, depth+1, &w.notes) // a leaf: no names to report
		} else {
			end, ok = w.value(b, i, depth+1)
		}
		if !ok {
			return 0, false
		}
		if obj {
			w.fn(depth+1, open, i, name, b[i:end])
		}
		i = skipSpace(b, end)
		if i >= len(b) {
			return 0, false
		}
		if b[i] == closer {
			return i + 1, true
		}
		if b[i] != ',' {
			return 0, false
		}
		i = skipSpace(b, i+1)
	}
}

// ValidString reports whether b holds a valid JSON string starting at
// offset i, and returns the offset just after its closing quote.
func ValidString(b []byte, i int) (end int, ok bool) {
	if i < 0 || i >= len(b) || b[i] != '"' {
		return 0, false
	}
	var n notes
	return validString(b, i, &n)
}
