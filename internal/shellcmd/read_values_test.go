package shellcmd

import (
	"fmt"
	"testing"
)

// TestReadValues: the values read sets from a static input, as read with
// the default IFS sets them, and none where an option it takes a value
// from (-d, -n, -p, ...) or a name computed at run time leaves them open.
func TestReadValues(t *testing.T) {
	words := func(ws ...string) []Word {
		out := []Word{{Kind: Static, Text: "read"}}
		for _, w := range ws {
			out = append(out, Word{Kind: Static, Text: w})
		}
		return out
	}
	for _, tc := range []struct {
		form []Word
		text string
		want string
	}{
		{words("f"), ".env\n", "[f=.env]"},
		{words("-r", "f"), `.e\nv`, `[f=.e\nv]`},
		{words("f"), `.e\nv`, "[f=.env]"},
		{words("a", "b"), "  x  .env  y \n", "[a=x b=.env  y]"},
		{words("a", "b", "c"), "x", "[a=x b= c=]"},
		{words(), "rm x", "[REPLY=rm x]"},
		{words("-a", "arr"), "x .env", "[arr=x arr=.env]"},
		{words("-d", "x", "f"), ".env", "[]"},
		{append(words(), Word{Kind: Dynamic, Text: "$n"}), ".env", "[]"},
	} {
		var got []string
		for _, a := range readValues(tc.form, tc.text) {
			got = append(got, a.Name+"="+a.Value)
		}
		if s := fmt.Sprint(got); s != tc.want {
			t.Errorf("readValues(%v, %q) = %s, want %s", tc.form, tc.text, s, tc.want)
		}
	}
}
