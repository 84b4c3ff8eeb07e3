package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// The writer encodes the values it has already decoded (the trees that
// redaction walks) straight into RFC 8785 form with appendCanonical, instead
// of marshalling them and running jcs.Transform over the result: one pass
// instead of two. The verifier uses jcs.Transform, so every line written is
// checked against the reference implementation; FuzzCanonical compares the
// two on arbitrary JSON.

// appendCanonical appends the RFC 8785 (JCS) form of v, a decoded JSON tree
// (map[string]any, []any, string, float64 or json.Number, numberMarker,
// bool, nil), to dst.
func appendCanonical(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		if v {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case string:
		return appendCanonicalString(dst, v), nil
	case float64:
		s, err := jcs.NumberToJSON(v)
		if err != nil {
			return dst, fmt.Errorf("number %v: %v", v, err)
		}
		return append(dst, s...), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return dst, fmt.Errorf("number %s: %v", v, err)
		}
		s, err := jcs.NumberToJSON(f)
		if err != nil {
			return dst, fmt.Errorf("number %s: %v", v, err)
		}
		return append(dst, s...), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendCanonical(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		var buf [16]string
		keys := buf[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareUTF16)
		return appendObject(dst, keys, func(dst []byte, k string) ([]byte, error) {
			return appendCanonical(dst, v[k])
		})
	case numberMarker:
		return appendNumberMarker(dst, string(v)), nil
	case canonObject:
		return append(dst, v...), nil
	case canonOther:
		return append(dst, v...), nil
	case *sharedTree:
		if v.canon == nil {
			start := len(dst)
			var err error
			if dst, err = appendCanonical(dst, v.v); err != nil {
				return dst, err
			}
			// A copy: the field being encoded may yet be cut and
			// overwritten in dst (capField).
			v.canon = bytes.Clone(dst[start:])
			return dst, nil
		}
		return append(dst, v.canon...), nil
	default:
		return dst, fmt.Errorf("unexpected %T in decoded JSON", v)
	}
}

// appendObject appends the object whose member names are keys, in the
// order given (RFC 8785's is the caller's to make), each value appended
// by member; it stops at member's first error.
func appendObject(dst []byte, keys []string, member func(dst []byte, k string) ([]byte, error)) ([]byte, error) {
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendCanonicalString(dst, k)
		dst = append(dst, ':')
		var err error
		if dst, err = member(dst, k); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendCanonicalString appends s as an RFC 8785 string: only '"', '\\' and
// control characters are escaped, with the short forms where JSON has them.
// Invalid UTF-8 becomes U+FFFD, as encoding/json does.
func appendCanonicalString(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		// Most bytes are their own canonical form: copied a run at a
		// time.
		if n := plainRun(s[i:]); n > 0 {
			dst = append(dst, s[i:i+n]...)
			if i += n; i >= len(s) {
				break
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c >= 0x20:
				dst = append(dst, c)
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, "\uFFFD"...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// plainRun returns how many bytes s starts with that a canonical string
// holds as they are: printable ASCII (and DEL) other than '"' and '\\'.
// Eight bytes are looked at a step.
func plainRun(s string) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8] // one bounds check, not eight
		w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		// The high bit of each byte of w that is 0x80 or above, below
		// 0x20, '"' or '\\' (a byte equal to c is a zero byte of
		// w^(c*ones)). A borrow may mark a byte above one of those, never
		// one below: the lowest mark is the first such byte.
		q, bs := w^('"'*ones), w^('\\'*ones)
		if m := (w | (w-0x20*ones)&^w | (q-ones)&^q | (bs-ones)&^bs) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			break
		}
	}
	return i
}

// compareUTF16 orders strings by their UTF-16 code units, as RFC 8785
// requires for object keys. It differs from byte order only when a key holds
// characters above U+FFFF next to characters in U+E000..U+FFFF.
func compareUTF16(a, b string) int {
	if isASCII(a) && isASCII(b) {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// decodeTree decodes JSON into the generic tree appendCanonical encodes.
// Numbers become float64: RFC 8785 writes every number as an IEEE 754
// double anyway. A number no double holds becomes a numberMarker.
func decodeTree(data []byte) (any, error) {
	if v, ok := fastDecode(data, true); ok {
		return v, nil
	}
	return decodeSlow(data)
}

// hashHex returns the lowercase hex SHA-256 of b.
func hashHex(b []byte) string {
	sum := sha256.Sum256(b)
	var h [2 * sha256.Size]byte
	hex.Encode(h[:], sum[:])
	return string(h[:])
}

// jsonInt returns n as a JSON number in a decoded tree.
func jsonInt(n int) json.Number { return json.Number(strconv.Itoa(n)) }
