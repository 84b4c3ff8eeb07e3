package rawjson

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// JSON readers agree on what a valid document says only within limits
// that some of them enforce and others do not. serde_json (Zed's reader)
// stops at 128 nested containers and fails on a number past a double's
// range, where Go reads 10,000 levels and JavaScript reads 1e400 as
// Infinity; Ruby's JSON stops at 100 levels. A reader that fails drops
// the whole message, so a document past those limits is one message to
// one peer and none to another.

// MaxPortableDepth is the deepest nesting, in containers counting the
// outermost, that every common JSON reader reads: under Ruby's 100 and
// serde_json's 128, however much of the document the reader starts from.
const MaxPortableDepth = 100

// Portable returns why b, one valid JSON value, is not read alike by the
// common JSON readers, or nil: it nests more than MaxPortableDepth
// containers, or holds a number past a double's range (NumberOverflows).
// It does not validate b.
func Portable(b []byte) error {
	depth := 0
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			i = stringEnd(b, i)
		case c == '{' || c == '[':
			depth++
			if err := PortableDepth(depth); err != nil {
				return err
			}
			i++
		case c == '}' || c == ']':
			depth--
			i++
		case c == '-' || c >= '0' && c <= '9':
			end := i + 1
			for end < len(b) && numberByte(b[end]) {
				end++
			}
			if err := PortableNumber(b[i:end]); err != nil {
				return err
			}
			i = end
		default:
			i++
		}
	}
	return nil
}

// PortableDepth returns Portable's error for a container opened depth
// containers deep (1: the outermost), or nil.
func PortableDepth(depth int) error {
	if depth > MaxPortableDepth {
		return fmt.Errorf("nested more than %d levels deep, past what some JSON readers read (serde_json, Zed's, stops at 128 and drops the message)", MaxPortableDepth)
	}
	return nil
}

// PortableNumber returns Portable's error for the JSON number n, or nil.
func PortableNumber(n []byte) error {
	if NumberOverflows(n) {
		return fmt.Errorf("the number %.40s is past a double's range, which JSON readers read differently (JavaScript as Infinity; serde_json, Zed's, fails and drops the message)", n)
	}
	return nil
}

// stringEnd returns the offset just past the string that starts at b[i],
// or len(b) for one that does not end; skipString reads it with the
// vector scan.
func stringEnd(b []byte, i int) int {
	end, err := skipString(b, i)
	if err != nil {
		return len(b)
	}
	return end
}

// numberByte reports whether c may continue a JSON number.
func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// NumberOverflows reports whether n, a JSON number, is past the range of
// a double: JavaScript reads it as Infinity, serde_json and Go's
// encoding/json (into an interface or a float) fail. A number smaller
// than the least double reads as 0 everywhere and does not overflow.
func NumberOverflows(n []byte) bool {
	// Without an exponent a number needs more than 308 digits to
	// overflow; most numbers are decided here without parsing.
	if len(n) <= 308 && bytes.IndexAny(n, "eE") < 0 {
		return false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return err != nil && math.IsInf(f, 0)
}
