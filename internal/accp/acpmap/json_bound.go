package acpmap

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// Bounding a body from its text: frameJSONSize needs the parsed frame, and
// parsing a frame allocates about 70 bytes for each of its values (a 440 KB
// table of 200,000 numbers is 30 MB), whatever the JSON limit. The decoder
// therefore first reads the body's text (accp.Limits.ParseOutline) for a
// lower bound of frameJSONSize, and refuses a frame whose bound is over
// Options.MaxJSONBytes before parsing it. The bound mirrors jsonSize value
// by value, taking for each token the least its value can count: a string
// token of n bytes with k escapes decodes to at least n-5k bytes (no
// escape is more than 5 bytes longer than what it stands for), a "$N" ref
// to at least 2 bytes of JSON. An array counts as a table (its column
// names in every row) only when the text shows it is one; when it may be
// one (a ref or a number-like token where a name or row stands), it
// counts as the lesser of the two readings.

// bodyBound is what the text of a body shows: a lower bound of the JSON
// it decodes to, and how many messages it holds.
type bodyBound struct {
	bytes, messages int
}

// frameBound reads body, the text of a frame with header head (see
// accp.Limits.ParseOutline). ok is false when the text is not as the
// parser would accept: then the parser reports why.
func frameBound(head *accp.Frame, body string) (b bodyBound, ok bool) {
	sc := &boundScanner{s: body}
	if isRun(head) {
		return sc.run()
	}
	n, ok := sc.params(byFrame[[2]string{head.Intent, head.Op}], '|', len(body))
	return bodyBound{bytes: n, messages: 1}, ok
}

// boundScanner reads values from the text of a body, bounding the JSON
// they decode to. It builds no values.
type boundScanner struct {
	s string
	i int
}

// shape is what an array needs to know of an item to tell whether
// fromValue reads the array as a table (see tableHead), and the bound of
// its elements, which a table's rows keep.
type shape struct {
	array bool // certainly an array: n elements, their bounds summing to elems
	n     int
	elems int
	strs  bool // an array whose elements are all certainly strings
	str   bool // certainly a string
	cols  bool // a pair "cols"; strs, n and elems describe its value
}

// run bounds the messages of a run frame's body: "m:[intent_op:{...},...]",
// each message's params counted as frameJSONSize counts them (cid and sid
// are its envelope).
func (sc *boundScanner) run() (bodyBound, bool) {
	if !strings.HasPrefix(sc.s, runKey+":[") || !strings.HasSuffix(sc.s, "]") {
		return bodyBound{}, false
	}
	sc.i = len(runKey) + 2
	var b bodyBound
	for {
		key, ok := sc.key()
		if !ok || !sc.next(':') || !sc.next('{') {
			return bodyBound{}, false
		}
		intent, op, _ := strings.Cut(key, "_")
		k := byFrame[[2]string{intent, op}]
		if k == nil {
			return bodyBound{}, false
		}
		n, ok := sc.params(k, ',', -1)
		if !ok || !sc.next('}') {
			return bodyBound{}, false
		}
		b.bytes += n
		b.messages++
		if sc.next(',') {
			continue
		}
		return b, sc.next(']') && sc.i == len(sc.s)
	}
}

// params bounds key:value params separated by sep, as frameJSONSize
// counts them for a message of kind k (nil for none), up to end (-1: up to
// the closing "}"). In a run entry, cid and sid are envelope fields.
func (sc *boundScanner) params(k *kind, sep byte, end int) (int, bool) {
	n := jsonFixedBytes
	if sc.i == end || end < 0 && sc.peek('}') {
		return n, true
	}
	for {
		key, ok := sc.key()
		if !ok || !sc.next(':') {
			return 0, false
		}
		c := paramCodec(k, key)
		v, _, ok := sc.value(0, c == verbatim || c == textBlock)
		if !ok {
			return 0, false
		}
		if end >= 0 || key != "cid" && key != "sid" {
			n += v
		}
		if sc.i == end || end < 0 && sc.peek('}') {
			return n, true
		}
		if !sc.next(sep) {
			return 0, false
		}
	}
}

// paramCodec returns the codec of param key for kind k (nil for none).
func paramCodec(k *kind, key string) codec {
	c := verbatim
	if k != nil {
		for _, fm := range k.fields {
			if fm.key == key {
				c = fm.codec
			}
		}
	}
	return c
}

// value bounds the value at sc.i, nested depth deep; table is false where
// an array is counted plainly whatever it holds (a codec's list).
func (sc *boundScanner) value(depth int, table bool) (int, shape, bool) {
	if sc.i >= len(sc.s) {
		return 0, shape{}, false
	}
	if c := sc.s[sc.i]; (c == '[' || c == '{') && depth+1 > Limits.MaxDepth {
		return 0, shape{}, false // the parser says how deep
	}
	switch sc.s[sc.i] {
	case '~':
		sc.i++
		return 3, shape{}, true // null
	case '$':
		sc.i++
		if sc.span(isRefChar) == 0 {
			return 0, shape{}, false
		}
		return 2, shape{}, true // "" or [] at least
	case '@':
		start := sc.i
		sc.i++
		if sc.span(isAgentChar) == 0 {
			return 0, shape{}, false
		}
		if sc.i+1 < len(sc.s) && sc.s[sc.i] == ':' && isKeyChar(sc.s[sc.i+1]) {
			sc.i++
			sc.span(isKeyChar)
		}
		return sc.i - start + 2, shape{}, true
	case '[':
		sc.i++
		return sc.array(depth+1, table)
	case '{':
		sc.i++
		return sc.mapValue(depth + 1)
	}
	return sc.scalar()
}

// array bounds the items of an array up to its "]".
func (sc *boundScanner) array(depth int, table bool) (int, shape, bool) {
	sh := shape{array: true, strs: true}
	if sc.next(']') {
		return 2, sh, true
	}
	var first shape
	rowElems := 0   // the bounds of the elements of rows that are arrays
	certain := true // every row is certainly an array as long as the head
	for {
		var v int
		var it shape
		var ok bool
		if key, pair := sc.pairKey(); pair {
			v, it, ok = sc.value(depth, true)
			it = shape{cols: key == colsKey, n: it.n, elems: it.elems, strs: it.array && it.strs}
			v += jsonStringSize(key) + 3 // {"key":v}
		} else {
			v, it, ok = sc.value(depth, true)
		}
		if !ok {
			return 0, shape{}, false
		}
		if sh.n == 0 {
			first = it
		} else {
			if it.array {
				rowElems += it.elems
			}
			certain = certain && it.array && it.n == first.n
		}
		sh.n++
		sh.elems += v
		sh.strs = sh.strs && it.str
		if sc.next(',') {
			continue
		}
		if !sc.next(']') {
			return 0, shape{}, false
		}
		break
	}
	plain := 2 + sh.n - 1 + sh.elems
	if !table || !first.cols {
		return plain, sh, true
	}
	rows := sh.n - 1
	if certain && first.strs {
		names := first.elems + first.n // each name and its colon
		return 2 + max(rows-1, 0) + rows*(2+names+max(first.n-1, 0)) + rowElems, sh, true
	}
	// Perhaps a table: its rows' brackets at least.
	return min(plain, 2+max(rows-1, 0)+2*rows+rowElems), sh, true
}

// mapValue bounds the entries of a map up to its "}".
func (sc *boundScanner) mapValue(depth int) (int, shape, bool) {
	n := 2
	if sc.next('}') {
		return n, shape{}, true
	}
	for {
		start, escapes := sc.i, 0
		for sc.i < len(sc.s) {
			if c := sc.s[sc.i]; isKeyChar(c) {
				sc.i++
			} else if c == '\\' {
				escapes++
				sc.i += 2
			} else {
				break
			}
		}
		key := stringBound(sc.i-start, escapes)
		if sc.i == start || !sc.next(':') {
			return 0, shape{}, false
		}
		v, _, ok := sc.value(depth, true)
		if !ok {
			return 0, shape{}, false
		}
		n += key + 1 + v
		if sc.next(',') {
			n++
			continue
		}
		return n, shape{}, sc.next('}')
	}
}

// scalar bounds a boolean, number or string token.
func (sc *boundScanner) scalar() (int, shape, bool) {
	start, escapes, plain := sc.i, 0, true
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		if c <= ' ' || c == 0x7f {
			return 0, shape{}, false
		}
		if c == '\\' {
			escapes++
			plain = false
			sc.i += 2
			continue
		}
		if isDelim(c) {
			break
		}
		if c == '_' {
			plain = false
		}
		sc.i++
	}
	if sc.i == start || sc.i > len(sc.s) {
		return 0, shape{}, false
	}
	tok := sc.s[start:sc.i]
	var str bool
	if plain {
		str = tok != "true" && tok != "false" && !strings.ContainsRune("-0123456789", rune(tok[0]))
	} else {
		str = !strings.HasPrefix(tok, `\#`)
	}
	return stringBound(len(tok), escapes), shape{str: str}, true
}

// stringBound is the least JSON a token of n bytes with the given number
// of escapes stands for: its quotes and what is left of it.
func stringBound(n, escapes int) int { return 2 + max(n-5*escapes, 0) }

// key scans a param key.
func (sc *boundScanner) key() (string, bool) {
	start := sc.i
	sc.span(isKeyChar)
	return sc.s[start:sc.i], sc.i > start
}

// pairKey scans the key of an array item that is a key:value pair, if it
// is one.
func (sc *boundScanner) pairKey() (string, bool) {
	j := sc.i
	for j < len(sc.s) && isKeyChar(sc.s[j]) {
		j++
	}
	if j == sc.i || j >= len(sc.s) || sc.s[j] != ':' {
		return "", false
	}
	key := sc.s[sc.i:j]
	sc.i = j + 1
	return key, true
}

func (sc *boundScanner) span(in func(byte) bool) int {
	start := sc.i
	for sc.i < len(sc.s) && in(sc.s[sc.i]) {
		sc.i++
	}
	return sc.i - start
}

func (sc *boundScanner) peek(c byte) bool { return sc.i < len(sc.s) && sc.s[sc.i] == c }

func (sc *boundScanner) next(c byte) bool {
	if sc.peek(c) {
		sc.i++
		return true
	}
	return false
}

// isDelim reports the delimiters of ACCP section 3.1, which end a token.
func isDelim(c byte) bool { return strings.IndexByte(`@>:{}[]|$,~\`, c) >= 0 }

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
func isRefChar(c byte) bool   { return isKeyChar(c) || c == '.' }
func isAgentChar(c byte) bool { return isKeyChar(c) || c == '-' }
