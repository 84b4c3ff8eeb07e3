package compress

import "math/bits"

// errnoNames are the errno names findErrorCodes recognises after an "E".
var errnoNames = []string{"NOENT", "ACCES", "PERM", "CONNREFUSED", "CONNRESET", "ADDRINUSE", "EXIST", "ISDIR",
	"NOTDIR", "TIMEDOUT", "PIPE", "NOMEM", "INVAL", "NOSPC", "NOTEMPTY"}

// findErrorCodes returns up to max error identifiers worth keeping across a
// summary, in order: compiler and linter codes (TS2304, E0308, SC2086:
// one to four capitals and three to five digits), errno names (ENOENT),
// Node's ERR_* codes and "status 503" or "exit code 2" phrases, each a
// whole word. It finds what the regular expression errorCode finds
// (TestFindErrorCodesMatchesRegexp) in one pass over text, many times
// faster: it runs on every command output. It looks only where a code can
// start (codeStartFrom: 16 bytes a step on amd64, else codeStartWords).
func findErrorCodes[T string | []byte](text T, max int) []string {
	var out []string
	for i := 0; i < len(text) && len(out) < max; {
		k := codeStartFrom(text, i)
		if k >= len(text) {
			break
		}
		start, n := k, 0
		if isDigit(text[k]) {
			// A phrase ends with its digits: it starts before them, no
			// earlier than i (it would overlap the code found last).
			for _, p := range phrases {
				if st := k - len(p); st >= i && hasPrefixAt(text, st, p) {
					start = st
					break
				}
			}
		}
		if start < k || isUpper(text[k]) {
			if start == 0 || !wordByte[text[start-1]] {
				n = matchCodeAt(text, start)
			}
		}
		if n > 0 {
			// A code ends where its word does.
			out = append(out, string(text[start:start+n]))
			i = start + n
			continue
		}
		// No code starts in the rest of this word: none of it starts one.
		i = k + 1
	}
	return out
}

// codeStartWords returns the index of the first place in s at or after i
// where a code can start (canStart), or len(s): it looks at the capitals
// and digits, found eight bytes a step (markFrom), and steps over the rest
// of a word that one does not start, eight bytes a step too (wordEndFrom).
func codeStartWords[T string | []byte](s T, i int) int {
	for {
		k := markFrom(s, i)
		switch {
		case k >= len(s) || canStart(s, k):
			return k
		case k == 0 || !wordByte[s[k-1]]:
			i = k + 1
		default:
			i = wordEndFrom(s, k+1)
		}
	}
}

// canStart reports whether what findErrorCodes finds can start at s[k]:
// it starts a word (k is 0 or s[k-1] is not a word byte) with a capital
// followed by a capital or a digit (the second byte of every code: TS2304,
// E0308, ENOENT, ERR_X), or with a digit after a space (the number of a
// phrase, "status 503", which ends with a space).
func canStart[T string | []byte](s T, k int) bool {
	if k > 0 && wordByte[s[k-1]] {
		return false
	}
	if isUpper(s[k]) {
		return k+1 < len(s) && (isUpper(s[k+1]) || isDigit(s[k+1]))
	}
	return isDigit(s[k]) && k > 0 && s[k-1] == ' '
}

// phrases are the words before the digits of a status code.
var phrases = [...]string{"status ", "exit code "}

// markFrom returns the index of the first capital ASCII letter or digit in
// s at or after i, or len(s). The first 16 bytes are tested eight at a
// time, as a mark is mostly near (in runs, at the next word); a longer
// stretch without one (lowercase prose) is left to markRest: 16 bytes a
// step (SSE2) on amd64, else markWords.
func markFrom[T string | []byte](s T, i int) int {
	for range 2 {
		if i+8 > len(s) || hasMark(load8(s, i)) {
			return markWords(s, i)
		}
		i += 8
	}
	return markRest(s, i)
}

// markWords is markFrom eight bytes a step, on every platform.
func markWords[T string | []byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if hasMark(load8(s, i)) {
			break
		}
	}
	for ; i < len(s); i++ {
		if isUpper(s[i]) || isDigit(s[i]) {
			return i
		}
	}
	return len(s)
}

// hasMark reports whether a byte of w is a capital ASCII letter or digit.
func hasMark(w uint64) bool { return hasBetween(w, 'A', 'Z') || hasBetween(w, '0', '9') }

// load8 returns the eight bytes of s from i, the first in the low byte.
func load8[T string | []byte](s T, i int) uint64 {
	_ = s[i+7] // one bounds check for the eight loads
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// wordEndFrom returns the index of the first byte in s at or after i that
// is not a word byte (see wordByte), or len(s), eight bytes a step: long
// runs without spaces (base64, minified code) are mostly one word after
// another.
func wordEndFrom[T string | []byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		_ = s[i+7] // one bounds check for the eight loads
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if m := nonWord(w); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && wordByte[s[i]] {
		i++
	}
	return i
}

// nonWord sets the top bit of each byte of w that is not a word byte: not
// a letter, digit or underscore (bytes of 0x80 and above never are).
func nonWord(w uint64) uint64 {
	const high = 0x8080808080808080
	return ^(between(w, '0', '9') | between(w, 'A', 'Z') | between(w, 'a', 'z') | between(w, '_', '_')) & high
}

// between sets the top bit of each byte of w in [lo, hi], both ASCII, and
// only of those: see hasBetween, whose terms are exact byte by byte.
func between(w uint64, lo, hi byte) uint64 {
	const ones = 0x0101010101010101
	t := w & (ones * 0x7F)
	return (ones*(127+uint64(hi)+1) - t) &^ w & (t + ones*(127-(uint64(lo)-1))) & (ones * 0x80)
}

// hasBetween reports whether a byte of w is in [lo, hi], both ASCII: for
// each byte b below 0x80, 127+hi+1-b has its top bit set when b <= hi, and
// b+127-(lo-1) when b >= lo; neither carries into the next byte. Bytes of
// 0x80 and above are left out by the mask of w's own top bits.
func hasBetween(w uint64, lo, hi byte) bool { return between(w, lo, hi) != 0 }

func startsCode(c byte) bool { return 'A' <= c && c <= 'Z' || c == 's' || c == 'e' }

// wordByte holds the bytes of a word: letters, digits and the underscore.
var wordByte = func() (t [256]bool) {
	for c := range t {
		t[c] = isWordByte(byte(c))
	}
	return t
}()

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// wordEnds reports whether a word ends at j in s.
func wordEnds[T string | []byte](s T, j int) bool { return j >= len(s) || !isWordByte(s[j]) }

// hasPrefixAt reports whether s[i:] starts with p.
func hasPrefixAt[T string | []byte](s T, i int, p string) bool {
	return len(s)-i >= len(p) && string(s[i:i+len(p)]) == p
}

// run returns the length of the run of bytes in s from i that ok accepts.
func run[T string | []byte](s T, i int, ok func(byte) bool) int {
	j := i
	for j < len(s) && ok(s[j]) {
		j++
	}
	return j - i
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// matchCodeAt returns the length of the error code starting at s[i], or 0.
func matchCodeAt[T string | []byte](s T, i int) int {
	switch s[i] {
	case 's':
		return matchNumberAfter(s, i, "status ")
	case 'e':
		return matchNumberAfter(s, i, "exit code ")
	}
	if u := run(s, i, isUpper); u >= 1 && u <= 4 {
		if d := run(s, i+u, isDigit); d >= 3 && d <= 5 && wordEnds(s, i+u+d) {
			return u + d
		}
	}
	if s[i] == 'E' {
		for _, name := range errnoNames {
			if hasPrefixAt(s, i+1, name) && wordEnds(s, i+1+len(name)) {
				return 1 + len(name)
			}
		}
		if hasPrefixAt(s, i, "ERR_") {
			r := run(s, i+4, func(c byte) bool { return isUpper(c) || isDigit(c) || c == '_' })
			if r >= 3 && wordEnds(s, i+4+r) {
				return 4 + r
			}
		}
	}
	return 0
}

// matchNumberAfter returns the length of phrase and the number of one to
// three digits after it at s[i] ("status 503"), or 0.
func matchNumberAfter[T string | []byte](s T, i int, phrase string) int {
	if !hasPrefixAt(s, i, phrase) {
		return 0
	}
	if d := run(s, i+len(phrase), isDigit); d >= 1 && d <= 3 && wordEnds(s, i+len(phrase)+d) {
		return len(phrase) + d
	}
	return 0
}
