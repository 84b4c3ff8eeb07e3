package aacp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzParsePacket feeds arbitrary text to Parse. It must not panic, must stay
// linear (the input is bounded by the fuzzer, the parser by MaxPacketBytes),
// must return a packet exactly when there is no error, and every accepted
// packet must survive encode and parse unchanged: parse(encode(p)) == p.
// A packet with no backslash at all must re-encode to its own bytes.
func FuzzParsePacket(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.aacp")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if l != "" && l[0] != '#' {
				f.Add(l)
			}
		}
	}
	for _, s := range []string{"", "|", "||", `\`, `FETCH|HR|return:a\`, "A|B|c:" + strings.Repeat(`\|`, 50), "A|B|x:1|x:2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ds := Parse(s)
		if (p == nil) != ds.HasErrors() {
			t.Fatalf("Parse(%q) = %v with HasErrors %v", s, p, ds.HasErrors())
		}
		for i, d := range ds {
			if d.Column < 1 || d.Column > len(s)+1 {
				t.Fatalf("Parse(%q): diagnostic %v has column outside the packet", s, d)
			}
			if i > 0 && ds[i-1].Column > d.Column {
				t.Fatalf("Parse(%q): diagnostics out of column order: %v", s, ds)
			}
		}
		if p == nil {
			return
		}
		enc := p.String()
		q, ds2 := Parse(enc)
		if ds2.HasErrors() {
			t.Fatalf("re-encoded %q as %q, which does not parse: %v", s, enc, ds2)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip of %q via %q:\n got %#v\nwant %#v", s, enc, q, p)
		}
		if len(ds2) != len(ds) {
			t.Fatalf("re-encoding changed the warnings of %q: %v, then %v", s, ds, ds2)
		}
		if !strings.Contains(s, `\`) && enc != s {
			t.Fatalf("plain packet %q re-encoded as %q", s, enc)
		}
	})
}

// FuzzRuleEncode feeds arbitrary instructions to the rule encoder: it must not
// panic, must give the same bytes twice, and every packet it makes must be
// valid and survive a parse unchanged.
func FuzzRuleEncode(f *testing.F) {
	for _, s := range []string{
		draftEnglish,
		"Process the invoice from supplier ABC Ltd for £4,200, match it against PO 441, payment terms net 30.",
		"Provision a directory account for user j.smith with email access, urgent, return it to X|Y-Agent.",
		"Fetch the budget allocation and spend per cost centre for Q1 FY2026 as Excel.",
		"Generate the monthly payroll summary report for 2025-11, low priority, and return it to REP-Agent.",
		"retrieve employee salary records \\ | : \x00 \xff",
	} {
		f.Add(s)
	}
	var e RuleEncoder
	f.Fuzz(func(t *testing.T, s string) {
		p, err := e.Encode(s)
		if err != nil {
			return
		}
		q, err := e.Encode(s)
		if err != nil || q.String() != p.String() {
			t.Fatalf("Encode(%q) not deterministic: %v then %v (%v)", s, p, q, err)
		}
		back, ds := Parse(p.String())
		if ds.HasErrors() {
			t.Fatalf("Encode(%q) = %q, which is invalid: %v", s, p, ds)
		}
		if !reflect.DeepEqual(back, p) {
			t.Fatalf("Encode(%q) = %q does not round-trip: %#v", s, p, back)
		}
	})
}
