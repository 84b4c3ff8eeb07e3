package accp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Kind is the type of a Value.
type Kind uint8

// The value kinds. KindString through KindRef follow section 3.1.1;
// KindAgent, KindPair and KindNumber are this implementation's readings of
// forms the draft uses or needs (see the package documentation).
const (
	KindNull    Kind = iota // ~
	KindBool                // true, false
	KindInt                 // 42, -7; any number of digits
	KindDecimal             // 3.14, canonical: at most 6 places, no trailing zero
	KindString              // hello, a\:b
	KindArray               // [1,2,3]
	KindMap                 // {a:1,b:2}, keys sorted on the wire
	KindRef                 // $warm.ckpt_1.status
	KindAgent               // @dev_team or @strategy:plan, an agent (and operation) reference
	KindPair                // rev:-12% as an array element (draft 3.2)
	KindNumber              // \#1e5, a JSON number with no canonical ACCP form
)

var kindNames = [...]string{"null", "bool", "int", "decimal", "string", "array", "map", "ref", "agent", "pair", "number"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Value is one typed ACCP value. Str holds the text of strings, the digits
// of integers and decimals, the key of a ref (without "$"), the agent of an
// agent reference (without "@"), and the lexeme of a raw number. List holds
// array elements; Fields holds map entries (sorted by key) or, for a pair,
// its single entry.
type Value struct {
	Kind   Kind
	Bool   bool
	Str    string
	List   []Value
	Fields []Field
}

// Field is one key:value entry of a body, a metadata block or a map.
type Field struct {
	Key string
	Val Value
}

// Null returns the null value "~".
func Null() Value { return Value{Kind: KindNull} }

// Bool returns a boolean value.
func Bool(b bool) Value { return Value{Kind: KindBool, Bool: b} }

// Int returns an integer value.
func Int(n int64) Value { return Value{Kind: KindInt, Str: fmt.Sprint(n)} }

// String returns a string value.
func String(s string) Value { return Value{Kind: KindString, Str: s} }

// Ref returns a reference to key, such as "warm.ckpt_1".
func Ref(key string) Value { return Value{Kind: KindRef, Str: key} }

// Array returns an array value.
func Array(items ...Value) Value { return Value{Kind: KindArray, List: items} }

// Map returns a map value with its entries sorted by key.
func Map(fields ...Field) Value {
	sortFields(fields)
	return Value{Kind: KindMap, Fields: fields}
}

// Number returns the integer, decimal or raw number value for a JSON number
// lexeme, choosing the canonical ACCP form when the lexeme has one.
func Number(lexeme string) Value {
	switch numberClass(lexeme) {
	case numInt:
		return Value{Kind: KindInt, Str: lexeme}
	case numDecimal:
		return Value{Kind: KindDecimal, Str: lexeme}
	}
	return Value{Kind: KindNumber, Str: lexeme}
}

func sortFields(fields []Field) {
	if !sort.SliceIsSorted(fields, func(i, j int) bool { return fields[i].Key < fields[j].Key }) {
		sort.SliceStable(fields, func(i, j int) bool { return fields[i].Key < fields[j].Key })
	}
}

// Get returns the value of key in a map (or pair) value.
func (v Value) Get(key string) (Value, bool) {
	for _, f := range v.Fields {
		if f.Key == key {
			return f.Val, true
		}
	}
	return Value{}, false
}

// Equal reports whether v and w are the same value. Map entries compare
// regardless of order.
func (v Value) Equal(w Value) bool {
	if v.Kind != w.Kind || v.Bool != w.Bool || v.Str != w.Str || len(v.List) != len(w.List) || len(v.Fields) != len(w.Fields) {
		return false
	}
	for i := range v.List {
		if !v.List[i].Equal(w.List[i]) {
			return false
		}
	}
	for _, f := range v.Fields {
		g, ok := w.Get(f.Key)
		if !ok || !f.Val.Equal(g) {
			return false
		}
	}
	return true
}

type numClass uint8

const (
	numNone numClass = iota
	numInt
	numDecimal
	numNonCanonical // numeric syntax of the grammar, not canonical
)

// numberClass classifies s against the grammar's integer and decimal rules
// and the canonical rules of 3.1.1.
func numberClass(s string) numClass {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intDigits := i - start
	if intDigits == 0 {
		return numNone
	}
	if i == len(s) {
		if (intDigits > 1 && s[start] == '0') || s == "-0" {
			return numNonCanonical
		}
		return numInt
	}
	if s[i] != '.' {
		return numNone
	}
	i++
	fs := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	frac := i - fs
	if frac == 0 || i != len(s) {
		return numNone
	}
	if (intDigits > 1 && s[start] == '0') || frac > 6 || s[len(s)-1] == '0' {
		return numNonCanonical
	}
	return numDecimal
}

// isJSONNumber reports whether s is a JSON number lexeme (RFC 8259).
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i == len(s) {
		return false
	}
	if s[i] == '0' {
		i++
	} else if s[i] >= '1' && s[i] <= '9' {
		i = skipDigits(s, i)
	} else {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		if i = skipDigits(s, i); i == d {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		if i = skipDigits(s, i); i == d {
			return false
		}
	}
	return i == len(s)
}

// skipDigits returns the index of the first byte at or after i in s that
// is not an ASCII digit.
func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// FromJSON converts a value produced by encoding/json with UseNumber
// (nil, bool, json.Number, string, []any, map[string]any; float64, int,
// int64 and uint64 are accepted too) into a Value.
// The conversion is lossless: ToJSON(FromJSON(x)) equals x.
func FromJSON(x any) (Value, error) {
	switch t := x.(type) {
	case nil:
		return Null(), nil
	case bool:
		return Bool(t), nil
	case json.Number:
		if !isJSONNumber(string(t)) {
			return Value{}, fmt.Errorf("invalid JSON number %q", t)
		}
		return Number(string(t)), nil
	case float64:
		return Number(strconv.FormatFloat(t, 'g', -1, 64)), nil
	case int:
		return Int(int64(t)), nil
	case int64:
		return Int(t), nil
	case uint64:
		return Value{Kind: KindInt, Str: strconv.FormatUint(t, 10)}, nil
	case string:
		return String(t), nil
	case []any:
		items := make([]Value, len(t))
		for i, e := range t {
			v, err := FromJSON(e)
			if err != nil {
				return Value{}, err
			}
			items[i] = v
		}
		return Value{Kind: KindArray, List: items}, nil
	case map[string]any:
		fields := make([]Field, 0, len(t))
		for k, e := range t {
			v, err := FromJSON(e)
			if err != nil {
				return Value{}, err
			}
			fields = append(fields, Field{k, v})
		}
		return Map(fields...), nil
	}
	return Value{}, fmt.Errorf("unsupported JSON value of type %T", x)
}

// ToJSON converts v into the encoding/json form (numbers as json.Number).
// Refs become "$key" strings, agent references "@agent" strings and pairs
// one-entry objects: forms that never come from FromJSON.
func (v Value) ToJSON() any {
	switch v.Kind {
	case KindNull:
		return nil
	case KindBool:
		return v.Bool
	case KindInt, KindDecimal, KindNumber:
		return json.Number(v.Str)
	case KindString:
		return v.Str
	case KindArray:
		out := make([]any, len(v.List))
		for i, e := range v.List {
			out[i] = e.ToJSON()
		}
		return out
	case KindMap, KindPair:
		out := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			out[f.Key] = f.Val.ToJSON()
		}
		return out
	case KindRef:
		return "$" + v.Str
	case KindAgent:
		return "@" + v.Str
	}
	return nil
}

// DecodeJSON parses JSON text into the encoding/json form with numbers kept
// as json.Number, so big integers and decimals survive exactly.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return x, nil
}

// JSONEqual reports whether a and b (encoding/json forms with json.Number)
// are the same JSON value: objects compare regardless of key order, numbers
// by their exact lexeme.
func JSONEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !JSONEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !JSONEqual(e, f) {
				return false
			}
		}
		return true
	}
	return false
}
