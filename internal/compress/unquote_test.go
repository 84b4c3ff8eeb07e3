package compress

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// unquoteSeeds are literals with each kind of escape, invalid UTF-8, and
// malformed ends.
var unquoteSeeds = []string{
	`""`, `"a"`, `"plain text"`, `"line one.\nline two.\n"`, `"\"quoted\" \\ \/ \b\f\n\r\t"`,
	`"caf\u00e9 \ud83d\ude00 \ud800 x"`, `"é \u0041"`, "\"\xff\xfe bad \\n\"", "\"ok \\n \xc3\"",
	`"ends in \"`, `"\x"`, `"\`, `"`, `"\u12"`, `"\q\n"`, "\"tab\\t\xe2\x82\xac\"",
	"\"a\\\xc3\xa9 escaped\"", "\"a\\\xc3 escaped\"",
}

// FuzzAppendUnquoted checks appendUnquoted against rawjson.AppendUnquoted,
// appending to a non-empty dst.
func FuzzAppendUnquoted(f *testing.F) {
	for _, s := range unquoteSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(strconv.Quote(strings.Repeat("the bridge forwards each message.\n", 40))))
	f.Fuzz(func(t *testing.T, lit []byte) {
		want, _ := rawjson.AppendUnquoted([]byte("prefix"), lit, 0)
		if got := appendUnquoted([]byte("prefix"), lit); !bytes.Equal(got, want) {
			t.Fatalf("appendUnquoted(%q) = %q, rawjson.AppendUnquoted gives %q", lit, got, want)
		}
	})
}

// TestAppendUnquoted checks the seeds as FuzzAppendUnquoted does, so that
// a plain test run covers them.
func TestAppendUnquoted(t *testing.T) {
	for _, s := range unquoteSeeds {
		want, _ := rawjson.AppendUnquoted(nil, []byte(s), 0)
		if got := appendUnquoted(nil, []byte(s)); !bytes.Equal(got, want) {
			t.Errorf("appendUnquoted(%q) = %q, rawjson.AppendUnquoted gives %q", s, got, want)
		}
	}
}

// BenchmarkAppendUnquoted decodes a 1 KiB prose chunk (a \n escape every
// 60 bytes or so), as agents stream them: rawjson's decoder against
// appendUnquoted.
func BenchmarkAppendUnquoted(b *testing.B) {
	lit := []byte(`"` + strings.Repeat(`the agent reads files and runs the tests again.\n`, 21) + `"`)
	dst := make([]byte, 0, 2*len(lit))
	b.Run("rawjson", func(b *testing.B) {
		b.SetBytes(int64(len(lit)))
		for b.Loop() {
			dst, _ = rawjson.AppendUnquoted(dst[:0], lit, 0)
		}
	})
	b.Run("appendUnquoted", func(b *testing.B) {
		b.SetBytes(int64(len(lit)))
		for b.Loop() {
			dst = appendUnquoted(dst[:0], lit)
		}
	})
}
