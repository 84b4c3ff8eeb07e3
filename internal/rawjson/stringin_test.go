package rawjson

import "testing"

var testKnown = []string{"session/update", "read", "in_progress"}

// TestStringIn: StringIn decodes as String does, and a string that spells
// out an element of known unescaped is decoded without allocating.
func TestStringIn(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{`"read"`, "read", true},
		{`"session/update"`, "session/update", true},
		{`"in_progress"`, "in_progress", true},
		{`"session\/update"`, "session/update", true},
		{`"\u0072ead"`, "read", true},
		{`"reading"`, "reading", true},
		{`"rea"`, "rea", true},
		{`""`, "", true},
		{`read`, "", false},
		{`null`, "", false},
		{`7`, "", false},
		{`"`, "", false},
	} {
		got, ok := StringIn([]byte(tc.in), testKnown)
		if got != tc.want || ok != tc.ok {
			t.Errorf("StringIn(%s) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	for _, k := range testKnown {
		v := []byte(`"` + k + `"`)
		if n := testing.AllocsPerRun(100, func() { StringIn(v, testKnown) }); n != 0 {
			t.Errorf("StringIn(%s) allocates %v times, want none", v, n)
		}
	}
}

// FuzzStringIn: StringIn says what String says of every input.
func FuzzStringIn(f *testing.F) {
	for _, s := range []string{`"read"`, `"session/update"`, `"re\u0061d"`, `"x"`, `""`, `"`, `read`, `"in_progress`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		got, ok := StringIn(v, testKnown)
		want, wantOK := String(v)
		if got != want || ok != wantOK {
			t.Fatalf("StringIn(%q) = %q, %v; String %q, %v", v, got, ok, want, wantOK)
		}
	})
}
