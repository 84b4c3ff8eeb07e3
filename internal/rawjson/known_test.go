package rawjson_test

import (
	"bytes"
	"slices"
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

// TestKnownRecorderLongest: a recorder told where a document's longest
// literal is steps over it by the end it was told, records it as any
// other, and reads every other value; a span that is not within the
// document, or the zero one, tells it nothing.
func TestKnownRecorderLongest(t *testing.T) {
	long := `"` + strings.Repeat(`ab\"c\\d\n`, 40) + `"`
	doc := []byte(`{"a":"x","text":` + long + `,"b":["` + strings.Repeat("y", 300) + `","short"]}`)
	ok, facts := rawjson.ValidNamesFacts(doc, 1, func(int, int, int, []byte, []byte) {})
	first := bytes.Index(doc, []byte(long))
	if !ok || facts.Longest != (rawjson.Span{Start: first, End: first + len(long)}) {
		t.Fatalf("ValidNamesFacts = %v, longest %+v; want the literal at %d", ok, facts.Longest, first)
	}
	want := record(t, doc, 0)
	for _, tc := range []struct {
		name  string
		given rawjson.Span
		// at is where SkipValue is asked; end what it must answer.
		at, end int
	}{
		{"the longest literal", facts.Longest, first, first + len(long)},
		{"another literal", facts.Longest, bytes.Index(doc, []byte(`"short"`)), bytes.Index(doc, []byte(`"short"`)) + 7},
		{"a span it trusts", rawjson.Span{Start: first, End: first + 5}, first, first + 5},
		{"the zero span", rawjson.Span{}, first, first + len(long)},
		{"a span past the end", rawjson.Span{Start: first, End: len(doc) + 1}, first, first + len(long)},
		{"a span before the start", rawjson.Span{Start: -1, End: 3}, first, first + len(long)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec rawjson.KnownRecorder
			rec.ResetLongest(doc, tc.given)
			if end, err := rec.SkipValue(tc.at); err != nil || end != tc.end {
				t.Fatalf("SkipValue(%d) = %d, %v; want %d", tc.at, end, err, tc.end)
			}
		})
	}
	got, err := rawjsontest.RecordGiven(doc, 0, facts.Longest)
	if err != nil || !slices.Equal(rawjson.SpansOf(&got), rawjson.SpansOf(&want)) {
		t.Fatalf("told the longest literal, recorded %v (%v); reading every literal, %v", rawjson.SpansOf(&got), err, rawjson.SpansOf(&want))
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
		// Told where the validation found the longest literal, the walk
		// records what it records reading every literal.
		ok, facts := rawjson.ValidNamesFacts(doc, 1, func(int, int, int, []byte, []byte) {})
		if !ok {
			t.Fatalf("ValidNamesFacts refused %q, which Valid accepts", doc)
		}
		given, err := rawjsontest.RecordGiven(doc, 2, facts.Longest)
		if err != nil {
			t.Fatalf("walking %q told %+v: %v", doc, facts.Longest, err)
		}
		if got, want := rawjson.SpansOf(&given), rawjson.SpansOf(&known); !slices.Equal(got, want) {
			t.Fatalf("%q told %+v: recorded %v; reading every literal, %v", doc, facts.Longest, got, want)
		}
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
