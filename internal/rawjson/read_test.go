package rawjson

import (
	"fmt"
	"strings"
	"testing"
)

// outlineRead writes the structure of the value at b[i] as ReadObject,
// ReadArray and SkipValue find it, descending into every object and array,
// and returns the offset past the value.
func outlineRead(sb *strings.Builder, b []byte, i int) (int, error) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, fmt.Errorf("end of input")
	}
	switch b[i] {
	case '{':
		sb.WriteByte('{')
		end, err := ReadObject(b, i, func(name []byte, at int) (int, error) {
			fmt.Fprintf(sb, "%q:", Key(name))
			return outlineRead(sb, b, at)
		})
		sb.WriteByte('}')
		return end, err
	case '[':
		sb.WriteByte('[')
		end, err := ReadArray(b, i, func(at int) (int, error) {
			sb.WriteByte(' ')
			return outlineRead(sb, b, at)
		})
		sb.WriteByte(']')
		return end, err
	}
	end, err := SkipValue(b, i)
	if err == nil {
		sb.Write(b[i:end])
	}
	return end, err
}

// outlineMembers writes the same structure as Members and Elements find it.
func outlineMembers(sb *strings.Builder, v []byte) error {
	v = v[skipSpace(v, 0):]
	switch {
	case len(v) > 0 && v[0] == '{':
		ms, err := Members(v)
		if err != nil {
			return err
		}
		sb.WriteByte('{')
		for _, m := range ms {
			fmt.Fprintf(sb, "%q:", m.Key)
			if err := outlineMembers(sb, m.Value); err != nil {
				return err
			}
		}
		sb.WriteByte('}')
	case len(v) > 0 && v[0] == '[':
		es, err := Elements(v)
		if err != nil {
			return err
		}
		sb.WriteByte('[')
		for _, e := range es {
			sb.WriteByte(' ')
			if err := outlineMembers(sb, e); err != nil {
				return err
			}
		}
		sb.WriteByte(']')
	default:
		end, err := skipValue(v, 0, 0)
		if err != nil {
			return err
		}
		sb.Write(v[:end])
	}
	return nil
}

func TestReadObject(t *testing.T) {
	tests := []struct {
		name, doc, want string
		bad             bool
	}{
		{"empty", `{}`, `{}`, false},
		{"members", ` {"a" : 1, "b":[true, null, "x\"]"], "c":{"d":{}}} `, `{"a":1"b":[ true null "x\"]"]"c":{"d":{}}}`, false},
		{"escaped name", `{"k\u00e9":"v"}`, `{"ké":"v"}`, false},
		{"nested arrays", `[[],[[1]],{"a":[{}]}]`, `[ [] [ [ 1]] {"a":[ {}]}]`, false},
		{"unterminated", `{"a":1`, ``, true},
		{"missing colon", `{"a" 1}`, ``, true},
		{"trailing comma", `{"a":1,}`, ``, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sb strings.Builder
			_, err := outlineRead(&sb, []byte(tt.doc), 0)
			if tt.bad {
				if err == nil {
					t.Fatalf("read %s as %s, want an error", tt.doc, sb.String())
				}
				return
			}
			if err != nil || sb.String() != tt.want {
				t.Fatalf("read %s as %s (%v), want %s", tt.doc, sb.String(), err, tt.want)
			}
		})
	}
}

// TestStructureErrors: an object or array must open with its byte, and
// after each member or element comes a ',' or the byte that closes it;
// where not, every reader's error says what was expected where, or that
// the input ended.
func TestStructureErrors(t *testing.T) {
	read := func(b []byte) error { var sb strings.Builder; _, err := outlineRead(&sb, b, 0); return err }
	skip := func(b []byte) error { _, err := SkipValue(b, 0); return err }
	members := func(b []byte) error { _, err := Members(b); return err }
	elements := func(b []byte) error { _, err := Elements(b); return err }
	object := func(b []byte) error { _, err := ReadObject(b, 0, nil); return err }
	array := func(b []byte) error { _, err := ReadArray(b, 0, nil); return err }
	tests := []struct {
		doc, want string
		readers   map[string]func([]byte) error
	}{
		{` [1]`, "rawjson: not an object at offset 1", map[string]func([]byte) error{"ReadObject": object, "Members": members}},
		{`{}`, "rawjson: not an array at offset 0", map[string]func([]byte) error{"ReadArray": array, "Elements": elements}},
		{`{"a":1`, "rawjson: unterminated object", map[string]func([]byte) error{"ReadObject": read, "SkipValue": skip, "Members": members}},
		{`{"a":1 "b":2}`, "rawjson: expected ',' or '}' at offset 7", map[string]func([]byte) error{"ReadObject": read, "SkipValue": skip, "Members": members}},
		{`[1, 2`, "rawjson: unterminated array", map[string]func([]byte) error{"ReadArray": read, "SkipValue": skip, "Elements": elements}},
		{`[1, 2 }`, "rawjson: expected ',' or ']' at offset 6", map[string]func([]byte) error{"ReadArray": read, "SkipValue": skip, "Elements": elements}},
	}
	for _, tt := range tests {
		for name, f := range tt.readers {
			if err := f([]byte(tt.doc)); err == nil || err.Error() != tt.want {
				t.Errorf("%s(%s) = %v, want %s", name, tt.doc, err, tt.want)
			}
		}
	}
}

// TestReadObjectBadOffset: a value of the wrong kind, or a callback that
// reports an end outside its value, is an error, not a read past it.
func TestReadObjectBadOffset(t *testing.T) {
	doc := []byte(`{"a":1,"b":2}`)
	if _, err := ReadObject([]byte(`"x"`), 0, nil); err == nil {
		t.Error("ReadObject of a string: no error")
	}
	if _, err := ReadArray(doc, 0, nil); err == nil {
		t.Error("ReadArray of an object: no error")
	}
	for _, end := range []int{0, 5, len(doc) + 1} {
		if _, err := ReadObject(doc, 0, func(_ []byte, at int) (int, error) { return end, nil }); err == nil {
			t.Errorf("member returning %d: no error", end)
		}
		if _, err := ReadArray([]byte(`[1]`), 0, func(at int) (int, error) { return end % 2, nil }); err == nil {
			t.Errorf("element returning %d: no error", end%2)
		}
	}
}

// FuzzReadObject: reading a document member by member in one pass finds
// the same structure as Members and Elements, and reading never panics.
func FuzzReadObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,{"b":"c"}],"d":null}`, `[{"k\u00e9":[]}]`, `{"a":"\"}"}`, `{"a":1,"a":2}`, `{"a":`, `[1,]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var got, want strings.Builder
		_, errRead := outlineRead(&got, doc, 0)
		if !Valid(doc) {
			return
		}
		if errRead != nil {
			t.Fatalf("valid %q: read failed: %v", doc, errRead)
		}
		if err := outlineMembers(&want, doc); err != nil {
			t.Fatalf("valid %q: Members failed: %v", doc, err)
		}
		if got.String() != want.String() {
			t.Fatalf("%q: read %s, Members %s", doc, got.String(), want.String())
		}
	})
}

func TestSkipValueStrings(t *testing.T) {
	tests := []struct {
		doc string
		end int // -1: an error
	}{
		{`"abc"`, 5},
		{`"" , 1`, 2},
		{`"a\"b"`, 6},
		{`"a\\"b"`, 5},
		{`"a\\\"b"`, 8},
		{`"\\\\\\\\"x"`, 10},
		{`"line\none\nline two \"quoted\" end"` + `,"next":"x"`, 36},
		{`"` + strings.Repeat(`word\n`, 40) + `"]`, 242},
		{`"` + strings.Repeat(`\\`, 30) + `\"` + `"`, 64},
		{`"abc`, -1},
		{`"abc\"`, -1},
		{`"ab\`, -1},
		{`"` + strings.Repeat(`x\n`, 20), -1},
	}
	for _, tt := range tests {
		end, err := SkipValue([]byte(tt.doc), 0)
		if tt.end < 0 {
			if err == nil {
				t.Errorf("SkipValue(%.40q) = %d, want an error", tt.doc, end)
			}
			continue
		}
		if err != nil || end != tt.end {
			t.Errorf("SkipValue(%.40q) = %d, %v; want %d", tt.doc, end, err, tt.end)
		}
	}
}

// FuzzSkipValue: SkipValue finds the end of every valid value exactly
// where the value ends, however its strings are escaped.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`"a\"b"`, `"\\\\"`, `{"k":"v\\\"w","x":["\n\"",1]}`, `["` + strings.Repeat(`ab\n`, 30) + `"]`, `"\u0022"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		end, err := SkipValue(doc, 0)
		if !Valid(doc) {
			return
		}
		if want := len(strings.TrimRight(string(doc), " \t\r\n")); err != nil || end != want {
			t.Fatalf("%q: SkipValue %d, %v; want %d", doc, end, err, want)
		}
	})
}
