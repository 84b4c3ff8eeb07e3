package acpmap

import (
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// Back-references: an ACP session repeats itself (the same paths, tool
// call ids, _meta blocks and option lists travel in several messages), and
// section 3.3 rule 4 asks encoders to reference state rather than repeat a
// value. Both ends of a session therefore number the values they see:
// walking each message's params in key order, depth first, every string,
// array and map whose canonical text is at least refMinBytes long gets the
// next number once its own children have been walked (a child numbered
// before its parent). With Options.Refs the encoder writes a value it has
// already numbered as "$N", a ref whose key is the number; the decoder
// replaces "$N" by value N, and neither end numbers a referenced value
// again or looks inside it. The decoder always keeps the numbering, so a
// stream tells by itself whether it uses refs. Mapped frames hold no other
// refs (a string starting with "$" is escaped), so "$N" is unambiguous.
// Frames must be decoded in seq order, which section 3.7 already demands,
// and a frame the delivery rules drop still takes part in the numbering.
const (
	refMinBytes   = 8        // a shorter value costs about as much as its ref
	refMaxEntries = 1 << 16  // then no more values are numbered
	refMaxBytes   = 32 << 20 // canonical text held, likewise
	// refCountBelow: a repeated value shorter than this many bytes is
	// written as a ref only if that takes fewer o200k tokens.
	refCountBelow = 64
)

// refTable is one end's numbering of a session's values.
type refTable struct {
	index map[string]int // encoder: canonical text -> number
	vals  []accp.Value   // decoder: number -> value
	n     int            // values numbered
	bytes int            // their canonical text, summed
	full  bool
	buf   []byte
}

// room reports whether a value of size bytes of canonical text gets a
// number, counting it if so.
func (t *refTable) room(size int) bool {
	if t.full || t.n >= refMaxEntries || t.bytes+size > refMaxBytes {
		t.full = true
		return false
	}
	t.n++
	t.bytes += size
	return true
}

// addText numbers a value on the encoder's side.
func (t *refTable) addText(text string) {
	if !t.room(len(text)) {
		return
	}
	if t.index == nil {
		t.index = map[string]int{}
	}
	if _, dup := t.index[text]; !dup {
		t.index[text] = t.n - 1
	}
}

// addValue numbers a value on the decoder's side.
func (t *refTable) addValue(size int, v accp.Value) {
	if t.room(size) {
		t.vals = append(t.vals, v)
	}
}

func numbered(k accp.Kind) bool {
	return k == accp.KindString || k == accp.KindArray || k == accp.KindMap
}

// sortedOrder returns the indexes of params in key order.
func sortedOrder(params []accp.Field) []int {
	order := make([]int, len(params))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(params[a].Key, params[b].Key) })
	return order
}

// encodeParams numbers the values of a message's params and replaces
// values numbered before by refs, in place.
func (t *refTable) encodeParams(params []accp.Field) {
	for _, i := range sortedOrder(params) {
		params[i].Val = t.encode(params[i].Val)
	}
}

func (t *refTable) encode(v accp.Value) accp.Value {
	if v.Kind == accp.KindPair {
		out := v
		out.Fields = []accp.Field{{Key: v.Fields[0].Key, Val: t.encode(v.Fields[0].Val)}}
		return out
	}
	if !numbered(v.Kind) {
		return v
	}
	if v.Kind == accp.KindMap && !slices.IsSortedFunc(v.Fields, func(a, b accp.Field) int { return strings.Compare(a.Key, b.Key) }) {
		v = accp.Map(slices.Clone(v.Fields)...)
	}
	text := string(accp.AppendValue(t.buf[:0], v))
	if len(text) < refMinBytes {
		return v // and so are its children
	}
	if n, ok := t.index[text]; ok {
		ref := accp.Ref(strconv.Itoa(n))
		// A short value can be fewer tokens than its ref ("description"
		// is one, "$17" two); it is then written again, and numbered
		// again, as the decoder will.
		if len(text) >= refCountBelow || accp.CountTokens(text) > accp.CountTokens(string(accp.AppendValue(nil, ref))) {
			return ref
		}
	}
	out := v
	switch v.Kind {
	case accp.KindArray:
		out.List = make([]accp.Value, len(v.List))
		for i, e := range v.List {
			out.List[i] = t.encode(e)
		}
	case accp.KindMap:
		out.Fields = make([]accp.Field, len(v.Fields))
		for i, f := range v.Fields {
			out.Fields[i] = accp.Field{Key: f.Key, Val: t.encode(f.Val)}
		}
	}
	t.addText(text)
	return out
}

// decodeParams resolves the refs of a message's params and numbers its
// values, in place.
func (t *refTable) decodeParams(params []accp.Field) error {
	for _, i := range sortedOrder(params) {
		v, err := t.decode(params[i].Val)
		if err != nil {
			return err
		}
		params[i].Val = v
	}
	return nil
}

func isNumber(s string) bool {
	if s == "" || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (t *refTable) decode(v accp.Value) (accp.Value, error) {
	switch v.Kind {
	case accp.KindRef:
		if !isNumber(v.Str) {
			return v, nil
		}
		n, _ := strconv.Atoi(v.Str)
		if n >= len(t.vals) {
			return v, &accp.Error{Code: accp.CodeRefNotFound, Offset: -1, Msg: "$" + v.Str + ": no such value earlier in the session"}
		}
		return t.vals[n], nil
	case accp.KindPair:
		r, err := t.decode(v.Fields[0].Val)
		if err != nil {
			return v, err
		}
		out := v
		out.Fields = []accp.Field{{Key: v.Fields[0].Key, Val: r}}
		return out, nil
	case accp.KindString:
		t.buf = accp.AppendValue(t.buf[:0], v)
		if len(t.buf) >= refMinBytes {
			t.addValue(len(t.buf), v)
		}
		return v, nil
	case accp.KindArray, accp.KindMap:
	default:
		return v, nil
	}
	out := v
	var err error
	if v.Kind == accp.KindArray {
		out.List = make([]accp.Value, len(v.List))
		for i, e := range v.List {
			if out.List[i], err = t.decode(e); err != nil {
				return v, err
			}
		}
	} else {
		out.Fields = make([]accp.Field, len(v.Fields))
		for i, f := range v.Fields {
			out.Fields[i].Key = f.Key
			if out.Fields[i].Val, err = t.decode(f.Val); err != nil {
				return v, err
			}
		}
	}
	t.buf = accp.AppendValue(t.buf[:0], out)
	if len(t.buf) >= refMinBytes {
		t.addValue(len(t.buf), out)
	}
	return out, nil
}
