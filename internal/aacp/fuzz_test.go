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
