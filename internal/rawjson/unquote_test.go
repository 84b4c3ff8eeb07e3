package rawjson

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendUnquoted checks AppendUnquoted against encoding/json on every
// valid JSON string: without a limit it gives encoding/json's text; with
// one, a prefix of it at least limit bytes long, or all of it and
// complete.
func FuzzAppendUnquoted(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\t\"q\"\\ \/"`, `"\u00e9\ud83d\ude00"`, `"\ud800x\udc00"`, `"\ud800\ud800"`,
		`"\udbff\udfff"`, "\"\xff\xfe caf\xc3\xa9\"", `"\u0000\u007f"`, `""`, "\"caf\xc3\xa9 cr\xc3\xa8me \xe2\x82\""} {
		f.Add([]byte(s), 0)
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, lit []byte, limit int) {
		var want string
		if json.Unmarshal(lit, &want) != nil || lit[0] != '"' || lit[len(lit)-1] != '"' {
			return // literals as a message holds them: quotes first and last
		}
		limit %= len(lit) + 2
		got, complete := AppendUnquoted(nil, lit, limit)
		switch {
		case limit <= 0 && (!complete || string(got) != want):
			t.Fatalf("AppendUnquoted(%q) = %q, %v; encoding/json gives %q", lit, got, complete, want)
		case !bytes.HasPrefix([]byte(want), got):
			t.Fatalf("AppendUnquoted(%q, %d) = %q, not a prefix of %q", lit, limit, got, want)
		case complete && string(got) != want:
			t.Fatalf("AppendUnquoted(%q, %d) = %q and complete; encoding/json gives %q", lit, limit, got, want)
		case !complete && len(got) < limit:
			t.Fatalf("AppendUnquoted(%q, %d) = %q: incomplete and shorter than the limit", lit, limit, got)
		}
	})
}

func TestAppendUnquotedAppends(t *testing.T) {
	if got, _ := AppendUnquoted([]byte("x:"), []byte(`"a\nb"`), 0); string(got) != "x:a\nb" {
		t.Errorf("got %q", got)
	}
	// The limit counts what this call appends, and a character is never
	// split: "é" is two bytes.
	if got, complete := AppendUnquoted([]byte("x:"), []byte("\"ab\xc3\xa9cd\""), 3); string(got) != "x:ab\xc3\xa9" || complete {
		t.Errorf("got %q, %v", got, complete)
	}
}

func BenchmarkAppendUnquoted(b *testing.B) {
	lit := []byte(`"the bridge forwards each message as it came\n and the agent reads files. "`)
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(lit)))
	for b.Loop() {
		buf, _ = AppendUnquoted(buf[:0], lit, 0)
	}
}
