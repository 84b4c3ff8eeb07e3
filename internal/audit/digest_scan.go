package audit

import (
	"bytes"
	"slices"
	"sync"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
	"github.com/gowebpki/jcs"
)

// Under ContentDigest, a tool's output (a JSON array of content blocks,
// most of its bytes in one long text) was decoded into a tree of maps,
// redacted in place and encoded again: three walks, a map per block and
// a sort per map, for a record that keeps little more than a digest of
// the text. scanOutput makes the same canonical form in one pass over the
// JSON text, each member's value written as the redactor and
// appendCanonical would write it, the members of each object then put in
// canonical order. What it does not do the same way (a key the redactor
// would rename, a secret name/value pair, a diff, a duplicate key, an
// escaped or non-ASCII key, nesting deeper than
// maxDepth, invalid JSON) it reports, and digestTree, the tree path,
// reads the output instead. FuzzScanOutput compares the two.

// outputScanner is the state of one scanOutput.
type outputScanner struct {
	r *redactor
	jsonCursor
	// members holds the members of the objects being read, innermost
	// last; tmp holds an object's members while they are reordered.
	members []scanMember
	tmp     []byte
	// out is the canonical form being made.
	out []byte
	// digest says long strings become digest records (a tool's output);
	// without it every string is redacted and capped (redactor.str).
	digest bool
	// valid says the text is known to be valid JSON (scanValidOutput):
	// a string's end is found without checking its escapes and bytes
	// again.
	valid bool
}

// scanMember is one member of an object being read: its key and where
// its "key":value text is in the output being made.
type scanMember struct {
	key        []byte // the key's JSON text without quotes (plain ASCII)
	start, end int
}

// scanOutput returns the canonical form of a tool's output raw, redacted
// with its long strings as digest records (see digestTree), or false
// when raw is one of the cases it leaves to digestTree.
func (r *redactor) scanOutput(raw []byte) ([]byte, bool) {
	return r.scan(raw, true, false)
}

// scanValidOutput is scanOutput for raw known to be exactly one valid
// JSON value (RFC 8259), as a slice of a message the bridge read
// strictly is: the strings, most of a tool's output, are not checked
// again, only their ends found (validStringEnd). For valid JSON it
// returns what scanOutput returns (FuzzScanValidOutput); given text that
// is not valid, it may accept a string scanOutput would refuse.
func (r *redactor) scanValidOutput(raw []byte) ([]byte, bool) {
	return r.scan(raw, true, true)
}

// scanJSON is scanOutput for JSON that is not a tool's output (a tool
// call's input, the mirror's arguments): the canonical form that
// appendCanonical makes of the redactor's tree of raw, every string
// redacted and capped, or false where it leaves raw to that path.
func (r *redactor) scanJSON(raw []byte) ([]byte, bool) {
	return r.scan(raw, false, false)
}

// scanners keeps outputScanners with their buffers between scans: the
// canonical form is made in a buffer of the scanner's and copied out at
// its size, which is often a small part of the raw text.
var scanners = sync.Pool{New: func() any { return new(outputScanner) }}

// scan returns the canonical form of the whole of raw, or false.
func (r *redactor) scan(raw []byte, digest, valid bool) ([]byte, bool) {
	s := scanners.Get().(*outputScanner)
	s.r, s.data, s.i, s.digest, s.valid = r, raw, 0, digest, valid
	dst, ok := s.value(s.out[:0], 0)
	s.out = dst
	var canon []byte
	if s.space(); ok && s.i == len(s.data) {
		canon = bytes.Clone(dst)
	}
	// The members' keys point into raw: a pooled scanner must not keep
	// the last event's bytes.
	clear(s.members[:cap(s.members)])
	s.r, s.data, s.members = nil, nil, s.members[:0]
	if cap(s.out) <= maxPooledScan && cap(s.tmp) <= maxPooledScan {
		scanners.Put(s)
	}
	return canon, canon != nil
}

// maxPooledScan is the largest buffer a pooled scanner keeps.
const maxPooledScan = 64 << 10

// value appends the canonical form of the value at s.data[s.i].
func (s *outputScanner) value(dst []byte, depth int) ([]byte, bool) {
	s.space()
	if s.i >= len(s.data) || depth > maxDepth {
		return dst, false
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return s.object(dst, depth)
	case c == '[':
		s.i++
		dst = append(dst, '[')
		if s.empty(']') {
			return append(dst, ']'), true
		}
		for n := 0; ; n++ {
			if n > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = s.value(dst, depth+1); !ok {
				return dst, false
			}
			more, ok := s.separator(']')
			if !ok {
				return dst, false
			}
			if !more {
				return append(dst, ']'), true
			}
		}
	case c == '"':
		end, ok := s.stringEnd()
		if !ok {
			return dst, false
		}
		lit := s.data[s.i:end]
		s.i = end
		return s.r.appendOutputString(dst, lit, s.digest)
	case c == 't':
		return s.literal(dst, "true")
	case c == 'f':
		return s.literal(dst, "false")
	case c == 'n':
		return s.literal(dst, "null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number(dst)
	}
	return dst, false
}

// stringEnd returns the end of the string at s.data[s.i] == '"': checked
// as JSON's grammar says (rawjson.ValidString) unless the text is known
// to be valid.
func (s *outputScanner) stringEnd() (int, bool) {
	if s.valid {
		return validStringEnd(s.data, s.i)
	}
	return rawjson.ValidString(s.data, s.i)
}

// validStringEnd returns the end of the string at b[i] == '"' in valid
// JSON: just past the first '"' after it that is not escaped, which in
// valid JSON is one after an even number of backslashes (a backslash
// there starts an escape or is one). The bytes are looked for a quote at
// a time (bytes.IndexByte), not checked. It reports false when no
// closing quote follows.
func validStringEnd(b []byte, i int) (int, bool) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, false
		}
		j += k
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, true
		}
		j++
	}
}

func (s *outputScanner) literal(dst []byte, lit string) ([]byte, bool) {
	if len(s.data)-s.i < len(lit) || string(s.data[s.i:s.i+len(lit)]) != lit {
		return dst, false
	}
	s.i += len(lit)
	return append(dst, lit...), true
}

// number appends a number of JSON's grammar as appendCanonical writes
// the float64 fastDecoder reads, or as redactor.tree writes the
// numberMarker it reads.
func (s *outputScanner) number(dst []byte) ([]byte, bool) {
	d := fastDecoder{jsonCursor: s.jsonCursor, marks: true}
	v, ok := d.number()
	if !ok {
		return dst, false
	}
	if _, ok := v.(numberMarker); ok {
		lit := s.data[s.i:d.i]
		s.i = d.i
		return s.r.appendScannedNumber(dst, lit)
	}
	text, err := jcs.NumberToJSON(v.(float64))
	if err != nil {
		return dst, false
	}
	s.i = d.i
	return append(dst, text...), true
}

// object appends the canonical form of the object at s.data[s.i]: each
// member as it comes, then all of them again in canonical order.
func (s *outputScanner) object(dst []byte, depth int) ([]byte, bool) {
	s.i++
	open := len(dst)
	dst = append(dst, '{')
	base := len(s.members)
	defer func() { s.members = s.members[:base] }()
	// The member "name" as it came, and whether a member "value" has
	// content: a secret name/value pair is left to the tree path.
	var nameLit []byte
	hasValue, valueContent := false, false
	if s.empty('}') {
		return append(dst, '}'), true
	}
	for {
		if !s.atName() {
			return dst, false
		}
		end, ok := s.stringEnd()
		if !ok {
			return dst, false
		}
		keyLit := s.data[s.i:end]
		s.i = end
		if !plainKey(keyLit) {
			return dst, false
		}
		key := keyLit[1 : len(keyLit)-1]
		if (key[0] == '$' || len(key) >= 8) && keyRenamed(string(key)) {
			return dst, false // a key of 7 bytes or fewer is renamed only as a marker
		}
		if !s.colon() {
			return dst, false
		}
		s.space()
		if len(s.members) > base {
			dst = append(dst, ',')
		}
		start := len(dst)
		dst = append(dst, keyLit...)
		dst = append(dst, ':')
		vstart, vfirst := len(dst), s.i
		if dst, ok = s.value(dst, depth+1); !ok {
			return dst, false
		}
		content := hasContentText(s.data[vfirst:s.i])
		switch string(key) {
		case "type":
			if lit := s.data[vfirst:s.i]; lit[0] == '"' && len(lit) <= PreviewBytes+2 && unquote(lit) == "diff" {
				return dst, false // a diff: its texts are kept (keepDiff)
			}
		case "name":
			nameLit = s.data[vfirst:s.i]
		case "value":
			hasValue, valueContent = true, content
		}
		if content && isSecretKey(string(key)) {
			dst = appendCanonicalString(append(dst[:vstart], `{"$redacted":true,"reason":`...), "secret-key:"+shorten(string(key), 64))
			dst = append(dst, '}')
		}
		s.members = append(s.members, scanMember{key: key, start: start, end: len(dst)})
		more, ok := s.separator('}')
		if !ok {
			return dst, false
		}
		if !more {
			break
		}
	}
	if nameLit != nil && hasValue && valueContent && nameLit[0] == '"' && len(nameLit) <= PreviewBytes+2 && isSecretKey(unquote(nameLit)) {
		return dst, false
	}
	return s.reorder(dst, open, s.members[base:])
}

// reorder rewrites the members of the object that starts at dst[open] in
// canonical order; a key given twice is left to the tree path.
func (s *outputScanner) reorder(dst []byte, open int, ms []scanMember) ([]byte, bool) {
	sorted := true
	for k := 1; k < len(ms); k++ {
		switch c := bytes.Compare(ms[k-1].key, ms[k].key); {
		case c == 0:
			return dst, false
		case c > 0:
			sorted = false
		}
	}
	if sorted {
		return append(dst, '}'), true
	}
	slices.SortFunc(ms, func(a, b scanMember) int { return bytes.Compare(a.key, b.key) })
	for k := 1; k < len(ms); k++ {
		if bytes.Equal(ms[k-1].key, ms[k].key) {
			return dst, false
		}
	}
	s.tmp = append(s.tmp[:0], dst[open:]...)
	dst = append(dst[:open], '{')
	for k, m := range ms {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, s.tmp[m.start-open:m.end-open]...)
	}
	return append(dst, '}'), true
}

// plainKey reports whether lit, a valid JSON string's text, holds only
// printable ASCII and no escape: then it is its own canonical form, its
// bytes are its decoded key, and byte order is RFC 8785's order.
func plainKey(lit []byte) bool {
	if len(lit) < 3 {
		return false
	}
	for _, c := range lit[1 : len(lit)-1] {
		if c == '\\' || c >= 0x7f {
			return false
		}
	}
	return true
}

// hasContentText is hasContent of the value whose JSON text is lit, as
// fastDecoder reads it with digests: null, false, true and "" have none.
func hasContentText(lit []byte) bool {
	switch lit[0] {
	case 'n', 't', 'f':
		return false
	case '"':
		return len(lit) > 2
	}
	return true
}

// appendOutputString appends the canonical form of a string whose JSON
// text is lit: with digest (a tool's output), its digest record when lit
// is longer than a preview; else the string redacted and capped
// (redactor.str).
func (r *redactor) appendOutputString(dst, lit []byte, digest bool) ([]byte, bool) {
	if digest && len(lit) > PreviewBytes+2 {
		out, short := r.appendDigestOf(dst, lit)
		if short != nil {
			dst, err := appendCanonical(dst, short)
			return dst, err == nil
		}
		return out, true
	}
	str := unquote(lit)
	if out, changed := r.str(str); changed {
		dst, err := appendCanonical(dst, out)
		return dst, err == nil
	}
	return appendCanonicalString(dst, str), true
}

// canonOther is a value other than an object already in canonical form:
// the v of a sharedTree made by scanOutput whose output is an array, a
// string or a number.
type canonOther []byte

// scannedTree is the sharedTree of an output whose canonical form
// scanOutput made.
func scannedTree(canon []byte) *sharedTree {
	st := &sharedTree{canon: canon}
	switch {
	case canon[0] == '{':
		st.v = canonObject(canon)
	case string(canon) != "null":
		st.v = canonOther(canon)
	}
	return st
}
