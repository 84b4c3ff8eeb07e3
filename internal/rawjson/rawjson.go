// Package rawjson reads and edits JSON documents as bytes, without decoding
// and re-encoding them.
//
// A bridge that forwards messages must not change what it does not mean to
// change: decoding into Go values and encoding again reorders keys, drops
// unknown fields, rewrites numbers and escapes. rawjson finds values by path
// and splices replacements into the original bytes, so every byte outside the
// edited value stays as it was.
//
// Paths are sequences of object keys and array indices (written as decimal
// strings): Get(doc, "params", "update", "sessionUpdate").
//
//	doc := []byte(`{"b":1,"a":{"x":[10,20]}}`)
//	v, _ := rawjson.Get(doc, "a", "x", "1")        // 20
//	out, _ := rawjson.Set(doc, []byte(`"y"`), "a", "z") // {"b":1,"a":{"x":[10,20],"z":"y"}}
package rawjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// maxDepth bounds nesting so a hostile document cannot exhaust the stack.
const maxDepth = 10000

// ErrNotFound reports that a path does not exist in a document.
var ErrNotFound = errors.New("rawjson: path not found")

// Member is one member of a JSON object, with its value as a sub-slice of the
// document it came from.
type Member struct {
	// Key is the decoded member name.
	Key string
	// Value is the raw value bytes, a sub-slice of the object.
	Value []byte
	// Start and End are the offsets of Value within the object bytes.
	Start, End int
}

// Members returns the members of the JSON object obj, in document order.
// Leading and trailing white space around obj is allowed.
func Members(obj []byte) ([]Member, error) {
	var ms []Member
	err := eachMember(obj, func(m Member) bool { ms = append(ms, m); return true })
	return ms, err
}

// Elements returns the raw elements of the JSON array arr.
func Elements(arr []byte) ([][]byte, error) {
	i, empty, err := opening(arr, 0, '[')
	if err != nil || empty {
		return nil, err
	}
	var out [][]byte
	for {
		start := i
		end, err := skipValue(arr, i, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, arr[start:end])
		i = skipSpace(arr, end)
		if i >= len(arr) || arr[i] != ',' {
			if _, err := closing(arr, i, ']'); err != nil {
				return nil, err
			}
			return out, nil
		}
		i = skipSpace(arr, i+1)
	}
}

// FirstMember returns the value of the first member of the JSON object obj
// named key, a sub-slice of obj, without reading past it. Where a name is
// repeated, encoding/json and Get take the last member, so FirstMember
// agrees with them only on an object whose names are known to be distinct:
// one a strict parser has already checked (acpwire refuses duplicate names
// in the messages it decodes strictly). On any other object use Get.
func FirstMember(obj []byte, key string) ([]byte, bool) {
	var v []byte
	found := false
	err := eachRawMember(obj, func(name []byte, vstart, vend int) bool {
		if string(name[1:len(name)-1]) == key || bytes.IndexByte(name, '\\') >= 0 && decodedIs(name, key) {
			v, found = obj[vstart:vend], true
			return false
		}
		return true
	})
	if err != nil || !found {
		return nil, false
	}
	return v, true
}

// decodedIs reports whether the quoted name with escapes decodes to key.
func decodedIs(name []byte, key string) bool {
	k, err := decodeKey(name)
	return err == nil && k == key
}

// eachMember calls fn for each member of obj until fn returns false.
func eachMember(obj []byte, fn func(Member) bool) error {
	var err error
	walkErr := eachRawMember(obj, func(name []byte, vstart, vend int) bool {
		var key string
		if key, err = decodeKey(name); err != nil {
			return false
		}
		return fn(Member{Key: key, Value: obj[vstart:vend], Start: vstart, End: vend})
	})
	if err != nil {
		return err
	}
	return walkErr
}

// eachRawMember calls fn with the quoted name and the value offsets of each
// member of obj until fn returns false.
func eachRawMember(obj []byte, fn func(name []byte, vstart, vend int) bool) error {
	i, empty, err := opening(obj, 0, '{')
	if err != nil || empty {
		return err
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return fmt.Errorf("rawjson: expected member name at offset %d", i)
		}
		kstart := i
		kend, err := skipString(obj, i)
		if err != nil {
			return err
		}
		i = skipSpace(obj, kend)
		if i >= len(obj) || obj[i] != ':' {
			return fmt.Errorf("rawjson: expected ':' at offset %d", i)
		}
		i = skipSpace(obj, i+1)
		vstart := i
		vend, err := skipValue(obj, i, 0)
		if err != nil {
			return err
		}
		if !fn(obj[kstart:kend], vstart, vend) {
			return nil
		}
		i = skipSpace(obj, vend)
		if i >= len(obj) || obj[i] != ',' {
			_, err := closing(obj, i, '}')
			return err
		}
		i = skipSpace(obj, i+1)
	}
}

func decodeKey(s []byte) (string, error) {
	for _, c := range s[1 : len(s)-1] {
		if c == '\\' {
			var k string
			if err := json.Unmarshal(s, &k); err != nil {
				return "", fmt.Errorf("rawjson: bad member name: %v", err)
			}
			return k, nil
		}
	}
	return string(s[1 : len(s)-1]), nil
}

// Get returns the raw value at path in doc. The result is a sub-slice of doc.
func Get(doc []byte, path ...string) ([]byte, bool) {
	start, end, err := locate(doc, path)
	if err != nil {
		return nil, false
	}
	return doc[start:end], true
}

// GetString returns the string value at path, decoded.
func GetString(doc []byte, path ...string) (string, bool) {
	v, ok := Get(doc, path...)
	if !ok {
		return "", false
	}
	return String(v)
}

// String decodes v if it is a JSON string.
func String(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	plain := true
	for _, c := range v[1 : len(v)-1] {
		if c == '\\' || c < 0x20 {
			plain = false
			break
		}
	}
	if plain {
		return string(v[1 : len(v)-1]), true
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}

// StringIn is String for a value that is often one of known: a string
// that spells out an element of known, unescaped, comes back as that
// element itself, so decoding it allocates nothing. The elements must
// hold no '"' or '\\'.
func StringIn(v []byte, known []string) (string, bool) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		for _, k := range known {
			if string(v[1:len(v)-1]) == k {
				return k, true
			}
		}
	}
	return String(v)
}

// locate finds the byte range of the value at path.
func locate(doc []byte, path []string) (int, int, error) {
	start := skipSpace(doc, 0)
	end, err := skipValue(doc, start, 0)
	if err != nil {
		return 0, 0, err
	}
	for _, p := range path {
		cur := doc[start:end]
		ns, ne, err := child(cur, p)
		if err != nil {
			return 0, 0, err
		}
		start, end = start+ns, start+ne
	}
	return start, end, nil
}

// child finds member key (for objects) or index (for arrays) within v.
func child(v []byte, key string) (int, int, error) {
	if len(v) == 0 {
		return 0, 0, ErrNotFound
	}
	switch v[0] {
	case '{':
		s, e := -1, -1
		// The last duplicate wins, as in encoding/json.
		err := eachMember(v, func(m Member) bool {
			if m.Key == key {
				s, e = m.Start, m.End
			}
			return true
		})
		if err != nil {
			return 0, 0, err
		}
		if s < 0 {
			return 0, 0, ErrNotFound
		}
		return s, e, nil
	case '[':
		idx, err := strconv.Atoi(key)
		if err != nil || idx < 0 {
			return 0, 0, ErrNotFound
		}
		i := skipSpace(v, 1)
		for n := 0; i < len(v) && v[i] != ']'; n++ {
			end, err := skipValue(v, i, 0)
			if err != nil {
				return 0, 0, err
			}
			if n == idx {
				return i, end, nil
			}
			i = skipSpace(v, end)
			if i < len(v) && v[i] == ',' {
				i = skipSpace(v, i+1)
			}
		}
		return 0, 0, ErrNotFound
	}
	return 0, 0, ErrNotFound
}

// Set returns a copy of doc with the value at path replaced by value (which
// must be valid JSON). Missing object members along the path are created,
// appended at the end of their object; every other byte of doc is kept.
func Set(doc, value []byte, path ...string) ([]byte, error) {
	if !json.Valid(value) {
		return nil, fmt.Errorf("rawjson: set %v: value is not valid JSON", path)
	}
	value = bytes.TrimSpace(value)
	if len(path) == 0 {
		return append([]byte(nil), value...), nil
	}
	start, end, err := locate(doc, path)
	if err == nil {
		return splice(doc, start, end, value), nil
	}
	if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	// Find the deepest existing ancestor and insert the rest there.
	for n := len(path) - 1; n >= 0; n-- {
		ps, pe, err := locate(doc, path[:n])
		if err != nil {
			continue
		}
		parent := doc[ps:pe]
		if len(parent) == 0 || parent[0] != '{' {
			return nil, fmt.Errorf("rawjson: set %v: %v is not an object", path, path[:n])
		}
		nested := value
		for i := len(path) - 1; i > n; i-- {
			nested = wrap(path[i], nested)
		}
		member := append(quote(path[n]), ':')
		member = append(member, nested...)
		closeAt := pe - 1 // the '}' of parent
		inner := skipSpace(doc[:closeAt], ps+1)
		var ins []byte
		if inner == closeAt || isEmptyObject(parent) {
			ins = member
		} else {
			ins = append([]byte{','}, member...)
		}
		return splice(doc, closeAt, closeAt, ins), nil
	}
	return nil, fmt.Errorf("rawjson: set %v: document is not an object", path)
}

func isEmptyObject(v []byte) bool {
	i := skipSpace(v, 1)
	return i < len(v) && v[i] == '}'
}

func wrap(key string, v []byte) []byte {
	out := append([]byte{'{'}, quote(key)...)
	out = append(out, ':')
	out = append(out, v...)
	return append(out, '}')
}

func quote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// Delete returns a copy of doc without the object member at path. Deleting a
// member that does not exist returns doc unchanged.
func Delete(doc []byte, path ...string) ([]byte, error) {
	if len(path) == 0 {
		return nil, fmt.Errorf("rawjson: delete needs a path")
	}
	ps, pe, err := locate(doc, path[:len(path)-1])
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return doc, nil
		}
		return nil, err
	}
	parent := doc[ps:pe]
	if len(parent) == 0 || parent[0] != '{' {
		return nil, fmt.Errorf("rawjson: delete %v: parent is not an object", path)
	}
	key := path[len(path)-1]
	var ms []Member
	if err := eachMember(parent, func(m Member) bool { ms = append(ms, m); return true }); err != nil {
		return nil, err
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Key != key {
			continue
		}
		// Remove from the start of the key to the end of the value, plus
		// one separating comma.
		keyStart := memberKeyStart(parent, ms[i].Start)
		from, to := keyStart, ms[i].End
		if i+1 < len(ms) {
			to = memberKeyStart(parent, ms[i+1].Start)
		} else if i > 0 {
			from = ms[i-1].End
		}
		out := splice(doc, ps+from, ps+to, nil)
		return Delete(out, path...) // remove duplicates too
	}
	return doc, nil
}

// memberKeyStart walks back from a value's start to the opening quote of its key.
func memberKeyStart(obj []byte, valueStart int) int {
	i := valueStart - 1
	for i > 0 && obj[i] != ':' {
		i--
	}
	i--
	for i > 0 && isSpace(obj[i]) {
		i--
	}
	// obj[i] is the closing quote of the key; find its opening quote.
	i--
	for i > 0 {
		if obj[i] == '"' && !escaped(obj, i) {
			return i
		}
		i--
	}
	return i
}

func escaped(b []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

func splice(doc []byte, start, end int, repl []byte) []byte {
	out := make([]byte, 0, len(doc)-(end-start)+len(repl))
	out = append(out, doc[:start]...)
	out = append(out, repl...)
	return append(out, doc[end:]...)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipString returns the offset just past the string starting at b[i] == '"'.
// Most strings (names, ids, kinds) end before their first escape, where
// plainRun stops. Past an escape, the closing quote is the next quote
// after an even run of backslashes: bytes.IndexByte finds quotes far
// quicker than plainRun steps from escape to escape through text that has
// a newline escaped every line.
func skipString(b []byte, i int) (int, error) {
	j := plainRun(b, i+1)
	if j < len(b) && b[j] == '"' {
		return j + 1, nil
	}
	for j < len(b) {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			break
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
	return 0, fmt.Errorf("rawjson: unterminated string at offset %d", i)
}

// skipValue returns the offset just past the value starting at b[i].
func skipValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return 0, fmt.Errorf("rawjson: unexpected end of input")
	}
	if depth > maxDepth {
		return 0, fmt.Errorf("rawjson: nesting deeper than %d", maxDepth)
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		j := skipSpace(b, i+1)
		if j < len(b) && b[j] == closer {
			return j + 1, nil
		}
		for {
			if c == '{' {
				if j >= len(b) || b[j] != '"' {
					return 0, fmt.Errorf("rawjson: expected member name at offset %d", j)
				}
				e, err := skipString(b, j)
				if err != nil {
					return 0, err
				}
				j = skipSpace(b, e)
				if j >= len(b) || b[j] != ':' {
					return 0, fmt.Errorf("rawjson: expected ':' at offset %d", j)
				}
				j = skipSpace(b, j+1)
			}
			e, err := skipValue(b, j, depth+1)
			if err != nil {
				return 0, err
			}
			j = skipSpace(b, e)
			if j >= len(b) || b[j] != ',' {
				return closing(b, j, closer)
			}
			j = skipSpace(b, j+1)
		}
	default:
		j := i
		for j < len(b) {
			switch b[j] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				if j == i {
					return 0, fmt.Errorf("rawjson: unexpected %q at offset %d", b[j], j)
				}
				return j, nil
			}
			j++
		}
		return j, nil
	}
}
