package aacp

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/quick"
)

// valueAlphabet is weighted towards the characters escaping is about.
var valueAlphabet = []rune(`|||:::\\\ab Z09=,.-_é€😀` + "\u2028")

func randomValue(r *rand.Rand) string {
	n := r.IntN(12)
	var b strings.Builder
	for range n {
		b.WriteRune(valueAlphabet[r.IntN(len(valueAlphabet))])
	}
	return b.String()
}

// TestEscapeRoundTrip checks, on random values full of '|', ':' and '\', that
// Parse(p.String()) gives back p, and that the encoding has exactly one
// unescaped '|' per field boundary.
func TestEscapeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 5000
	if testing.Short() {
		n = 500
	}
	for i := range n {
		p := &Packet{Task: "SEND", Domain: "CS", Fields: []Field{
			{"return", "CS-Agent"}, {"p", "2"}, {"aacp", Version}, {"subj", randomValue(r)}, {"to", randomValue(r)},
		}}
		if p.Fields[3].Value == "" {
			p.Fields[3].Value = "x" // an empty value is legal but warns; keep this test about escaping
		}
		if p.Fields[4].Value == "" {
			p.Fields[4].Value = "y"
		}
		s := p.String()
		got, ds := Parse(s)
		if len(ds) != 0 {
			t.Fatalf("case %d: Parse(%q): %v", i, s, ds)
		}
		if !reflect.DeepEqual(got, p) {
			t.Fatalf("case %d: round trip of %q:\n got %#v\nwant %#v", i, s, got, p)
		}
	}
}

// TestEscapeQuick is the same property over arbitrary strings from
// testing/quick, for values without control characters or invalid UTF-8
// (which are rejected, not escaped).
func TestEscapeQuick(t *testing.T) {
	f := func(v string) bool {
		if v == "" || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\uFFFD' }) {
			return true
		}
		p := &Packet{Task: "LOG", Domain: "HR", Fields: []Field{{"return", "AUD-Agent"}, {"p", "2"}, {"aacp", Version}, {"status", v}}}
		got, ds := Parse(p.String())
		return len(ds) == 0 && reflect.DeepEqual(got, p)
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 2000}); err != nil {
		t.Error(err)
	}
}

// TestPlainPacketsUnchanged: a packet with no '\' and no '|' in its values
// needs no escape, so encoding leaves it byte-identical to what an
// implementation without escaping writes, ':' in values included.
func TestPlainPacketsUnchanged(t *testing.T) {
	for _, s := range []string{
		"FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08|filter:status=active|fmt:json",
		"SEND|IT|return:IT-Agent|p:2|aacp:1.1|subj:restart at 02:00|att:https://example.com/a:b",
	} {
		p, ds := Parse(s)
		if ds.HasErrors() {
			t.Fatalf("Parse(%q): %v", s, ds)
		}
		if got := p.String(); got != s {
			t.Errorf("String() = %q, want the input %q", got, s)
		}
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a|b", `a\|b`},
		{`C:\dir`, `C:\\dir`},
		{"12:30", "12:30"},
		{`\|`, `\\\|`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAlternativeColonEscape(t *testing.T) {
	a, _ := Parse(`SEND|IT|return:IT-Agent|p:2|aacp:1.1|subj:at 02\:00`)
	b, _ := Parse(`SEND|IT|return:IT-Agent|p:2|aacp:1.1|subj:at 02:00`)
	if a == nil || b == nil || !reflect.DeepEqual(a, b) {
		t.Errorf(`"\:" and ":" decode differently: %v vs %v`, a, b)
	}
}
