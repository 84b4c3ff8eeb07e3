package compress

import (
	"encoding/json"
	"testing"
)

// FuzzAppendUnquoted checks appendUnquoted against encoding/json on every
// valid JSON string.
func FuzzAppendUnquoted(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\t\"q\"\\ \/"`, `"\u00e9\ud83d\ude00"`, `"\ud800x\udc00"`, `"\ud800\ud800"`,
		`"\udbff\udfff"`, "\"\xff\xfe caf\xc3\xa9\"", `"\u0000\u007f"`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, lit []byte) {
		var want string
		if json.Unmarshal(lit, &want) != nil || lit[0] != '"' || lit[len(lit)-1] != '"' {
			return // literals as a message holds them: quotes first and last
		}
		if got := string(appendUnquoted(nil, lit)); got != want {
			t.Fatalf("appendUnquoted(%q) = %q, encoding/json gives %q", lit, got, want)
		}
	})
}

func TestAppendUnquotedAppends(t *testing.T) {
	if got := string(appendUnquoted([]byte("x:"), []byte(`"a\nb"`))); got != "x:a\nb" {
		t.Errorf("got %q", got)
	}
}

func BenchmarkAppendUnquoted(b *testing.B) {
	lit := []byte(`"` + string(make([]byte, 0)) + "the bridge forwards each message as it came\\n and the agent reads files. " + `"`)
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(lit)))
	for range b.N {
		buf = appendUnquoted(buf[:0], lit)
	}
}
