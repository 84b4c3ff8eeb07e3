package accp

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

func seedFrames(f *testing.F) {
	for _, ex := range readDraftExamples(f) {
		f.Add(ex.frame)
	}
	for _, dir := range []string{"valid", "invalid"} {
		files, _ := filepath.Glob(filepath.Join("testdata/conformance", dir, "*.accp"))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err == nil {
				f.Add(string(b))
			}
		}
	}
}

// FuzzParseFrame checks that the parser never panics, and that whatever it
// accepts has a canonical form that parses back to the same frame.
func FuzzParseFrame(f *testing.F) {
	seedFrames(f)
	f.Fuzz(func(t *testing.T, s string) {
		fr, err := ParseFrame(s)
		if err != nil {
			if CodeOf(err) == CodeInternal {
				t.Fatalf("error without an ACCP code: %v", err)
			}
			return
		}
		canon, err := Format(fr)
		if err != nil {
			t.Fatalf("accepted frame does not format: %v", err)
		}
		again, err := ParseFrame(canon)
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", canon, s, err)
		}
		if again.String() != canon {
			t.Fatalf("canonical form not stable:\n%s\n%s", canon, again.String())
		}
		if !framesEqual(fr, again) {
			t.Fatalf("canonical form %q parses to a different frame than %q", canon, s)
		}
	})
}

func framesEqual(a, b *Frame) bool {
	if a.Agent != b.Agent || a.Intent != b.Intent || a.Op != b.Op || len(a.Params) != len(b.Params) || len(a.Meta) != len(b.Meta) {
		return false
	}
	for i := range a.Params {
		if a.Params[i].Key != b.Params[i].Key || !a.Params[i].Val.Equal(b.Params[i].Val) {
			return false
		}
	}
	for i := range a.Meta {
		if a.Meta[i].Key != b.Meta[i].Key || !a.Meta[i].Val.Equal(b.Meta[i].Val) {
			return false
		}
	}
	return true
}

// FuzzRoundTrip builds values from arbitrary strings and numbers and checks
// that parse(format(frame)) gives the same values: strings of any content
// (delimiters, spaces, underscores, controls, unicode, number look-alikes)
// and map keys of any valid UTF-8 content survive.
func FuzzRoundTrip(f *testing.F) {
	f.Add("hello world", "key", "42", int64(7))
	f.Add("", "", "1.50", int64(-1))
	f.Add("a_b c\\d|e:f{g}[h]$i@j~k,l>m\n\t\r\u2028", "zed.dev/x", "1e5", int64(0))
	f.Add("\\'x", "a b", "-0", int64(1<<62))
	f.Add("true", "_meta", "0.1234567", int64(3))
	f.Fuzz(func(t *testing.T, s, key, num string, n int64) {
		if !utf8.ValidString(s) || !utf8.ValidString(key) {
			// Invalid UTF-8 is written as U+FFFD, as encoding/json does.
			return
		}
		v, err := FromJSON(map[string]any{key: s, "n": n, "arr": []any{s, nil, true}})
		if err != nil {
			t.Fatal(err)
		}
		params := []Field{{"s", String(s)}, {"m", v}, {"i", Int(n)}}
		if isJSONNumber(num) {
			params = append(params, Field{"num", Number(num)})
		}
		fr := &Frame{Agent: "a", Intent: "req", Op: "fetch", Params: params,
			Meta: []Field{{"mid", String("123456789012")}, {"seq", Int(1)}, {"ts", Int(1714000000)}}}
		text, err := Format(fr)
		if err != nil {
			t.Fatalf("format: %v", err)
		}
		back, err := ParseFrame(text)
		if err != nil {
			t.Fatalf("parse %q: %v", text, err)
		}
		if !framesEqual(fr, back) {
			t.Fatalf("round trip of %q differs", text)
		}
	})
}
