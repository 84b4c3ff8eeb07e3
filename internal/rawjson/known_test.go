package rawjson_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
	"github.com/acp-bridge/acp-bridge/internal/rawjson/rawjsontest"
)

// record is rawjsontest.Record of doc, which the test must be able to walk.
func record(t testing.TB, doc []byte, min int) rawjson.KnownStrings {
	t.Helper()
	known, err := rawjsontest.Record(doc, min)
	if err != nil {
		t.Fatalf("walking %q: %v", doc, err)
	}
	return known
}

func TestKnownStrings(t *testing.T) {
	long := `"` + strings.Repeat(`ab\"c\\d\n`, 40) + `"`
	doc := []byte(`{"a":1,"text":` + long + `,"b":[` + long + `,"short"]}`)
	known := record(t, doc, 0)
	first := bytes.Index(doc, []byte(long))
	second := bytes.LastIndex(doc, []byte(long))
	params := doc[6:] // a sub-slice, as a message's params are of its bytes
	for _, tc := range []struct {
		name string
		b    []byte
		i    int
		want int // -1: not answered
	}{
		{"the document at its first literal", doc, first, first + len(long)},
		{"the document at its second literal", doc, second, second + len(long)},
		{"a sub-slice at a literal", params, first - 6, first - 6 + len(long)},
		{"a short literal", doc, bytes.Index(doc, []byte(`"short"`)), -1},
		{"inside a literal", doc, first + 4, -1},
		{"a copy of the document", bytes.Clone(doc), first, -1},
		{"a slice that ends inside the literal", doc[:first+10], first, -1},
		{"a slice of the same memory with another capacity", doc[6:len(doc):len(doc)], first - 6, -1},
		{"a slice starting at the literal", doc[first:], 0, len(long)},
		{"past the end", doc, len(doc), -1},
		{"before the start", doc, -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			end, ok := known.End(tc.b, tc.i)
			if want := tc.want >= 0; ok != want || ok && end != tc.want {
				t.Fatalf("End = %d, %v; want %d, %v", end, ok, tc.want, want)
			}
		})
	}
	if end, ok := (&rawjson.KnownStrings{}).End(doc, first); ok {
		t.Fatalf("the empty record answered %d", end)
	}
	if end, ok := (*rawjson.KnownStrings)(nil).End(doc, first); ok {
		t.Fatalf("a nil record answered %d", end)
	}
	if got := record(t, []byte(`{"a":"short","b":[1,2]}`), 0); got.Len() != 0 {
		t.Fatalf("a document without a long literal recorded %v", rawjson.SpansOf(&got))
	}
	// Kept without the document and given it again, the record answers as
	// before; given other bytes, never.
	var rec rawjson.KnownRecorder
	rec.Reset(doc)
	if end, err := rec.SkipValue(first); err != nil || end != first+len(long) {
		t.Fatalf("recorder's SkipValue = %d, %v; want %d", end, err, first+len(long))
	}
	again := rec.Spans().In(doc)
	if end, found := again.End(doc, first); !found || end != first+len(long) {
		t.Fatalf("End of the kept spans in the document = %d, %v", end, found)
	}
	if _, found := again.End(bytes.Clone(doc), first); found {
		t.Fatal("the kept spans answered for other bytes")
	}
}

// FuzzKnownStrings: wherever a record made by walking a valid document
// answers, for the document or any slice of it, its answer is what
// SkipValue and ValidString find reading the bytes.
func FuzzKnownStrings(f *testing.F) {
	for _, s := range []string{
		`{"a":"xy","b":["p\"q\\","r"],"c":{"d":"\u00e9\n"}}`,
		`"just a string"`,
		`[1,"two",{"three":"3"}, "four\\"]`,
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","content":[{"type":"content","content":{"type":"text","text":"line\nline\n"}}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !rawjson.Valid(doc) {
			return
		}
		known := record(t, doc, 2)
		for x := 0; x <= len(doc) && x < 8; x++ {
			b := doc[x:]
			for i := range b {
				end, ok := known.End(b, i)
				if !ok {
					continue
				}
				if want, err := rawjson.SkipValue(b, i); err != nil || want != end {
					t.Fatalf("%q[%d:] at %d: recorded end %d; SkipValue %d, %v", doc, x, i, end, want, err)
				}
				if want, valid := rawjson.ValidString(b, i); !valid || want != end {
					t.Fatalf("%q[%d:] at %d: recorded end %d; ValidString %d, %v", doc, x, i, end, want, valid)
				}
				if got, err := known.SkipValue(b, i); err != nil || got != end {
					t.Fatalf("KnownStrings.SkipValue %d, %v; want %d", got, err, end)
				}
			}
		}
		// Each span recorded is a whole literal.
		for _, s := range rawjson.SpansOf(&known) {
			if doc[s[0]] != '"' || doc[s[1]-1] != '"' {
				t.Fatalf("%q: span %v is not a literal", doc, s)
			}
		}
	})
}
