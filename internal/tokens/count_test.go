package tokens

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile are inputs the tokenizer handles worst when given whole.
func hostile(n int) map[string]string {
	r := rand.New(rand.NewPCG(1, 2))
	b64 := make([]byte, n)
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range b64 {
		b64[i] = alpha[r.IntN(len(alpha))]
	}
	bin := make([]byte, n)
	for i := range bin {
		bin[i] = byte(r.Uint32())
	}
	return map[string]string{
		"lower":     strings.Repeat("a", n),
		"upper":     strings.Repeat("A", n),
		"digits":    strings.Repeat("7", n),
		"spaces":    strings.Repeat(" ", n),
		"newlines":  strings.Repeat("\n", n),
		"punct":     strings.Repeat("!", n),
		"upperlow":  strings.Repeat("Ab", n/2),
		"base64":    string(b64),
		"binary":    string(bin),
		"cjk":       strings.Repeat("漢", n/3),
		"emoji":     strings.Repeat("👍🏽", n/8),
		"minified":  strings.Repeat(`function(a,b){return a.x+b.y};var q=[1,2,3];`, n/44),
		"prose":     strings.Repeat("the quick brown fox jumps over the lazy dog. ", n/45),
		"spacedpun": strings.Repeat(" !", n/2),
	}
}

func TestChunksJoinBack(t *testing.T) {
	for name, s := range hostile(10000) {
		var b strings.Builder
		for c := range Chunks(s) {
			if len(c) == 0 || len(c) > ChunkBytes {
				t.Fatalf("%s: chunk of %d bytes", name, len(c))
			}
			if utf8.ValidString(s) && !utf8.ValidString(c) {
				t.Fatalf("%s: chunk cut inside a character", name)
			}
			b.WriteString(c)
		}
		if b.String() != s {
			t.Fatalf("%s: chunks do not join back", name)
		}
	}
}

// TestCountCloseToExact measures how far the chunked count is from the
// tokenizer's count of the whole text, on texts the whole-text tokenizer
// still handles in reasonable time.
func TestCountCloseToExact(t *testing.T) {
	for name, s := range hostile(64 << 10) {
		exact, err := o200k().Count(s)
		if err != nil {
			t.Fatal(err)
		}
		got := Count(s)
		diff := float64(got-exact) / float64(max(exact, 1))
		t.Logf("%-10s exact %6d chunked %6d (%+.2f%%)", name, exact, got, 100*diff)
		if diff < -0.01 || diff > 0.02 {
			t.Errorf("%s: chunked count %d is %.2f%% off the exact %d", name, got, 100*diff, exact)
		}
	}
}

func TestCountSmallIsExact(t *testing.T) {
	for _, s := range []string{"", "hello world", "@agent>intent:op{a:1}[mid:x]", strings.Repeat("x", ChunkBytes)} {
		exact, _ := o200k().Count(s)
		if got := Count(s); got != exact {
			t.Errorf("Count(%.20q) = %d, want %d", s, got, exact)
		}
	}
}

func TestPiecesJoinBack(t *testing.T) {
	for name, s := range hostile(5000) {
		if !utf8.ValidString(s) {
			continue // the codec turns invalid bytes into U+FFFD
		}
		if got := strings.Join(Pieces(s), ""); got != s {
			t.Errorf("%s: pieces do not join back", name)
		}
		if len(Pieces(s)) != Count(s) {
			t.Errorf("%s: %d pieces, Count %d", name, len(Pieces(s)), Count(s))
		}
	}
}

func TestEstimate(t *testing.T) {
	for _, c := range []struct{ n, want int }{{-1, 0}, {0, 0}, {1, 1}, {4, 1}, {5, 2}} {
		if got := Estimate(c.n); got != c.want {
			t.Errorf("Estimate(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

func TestMaxTokenBytes(t *testing.T) {
	if n := MaxTokenBytes(); n < 100 || n > 1000 {
		t.Errorf("MaxTokenBytes() = %d", n)
	}
}

func FuzzCount(f *testing.F) {
	for _, s := range hostile(3000) {
		f.Add(s)
	}
	f.Add("\xff\xfe\x00\x7f")
	f.Fuzz(func(t *testing.T, s string) {
		n := Count(s)
		if n < 0 || n > len(s) {
			t.Fatalf("Count = %d for %d bytes", n, len(s))
		}
		var b strings.Builder
		for c := range Chunks(s) {
			b.WriteString(c)
		}
		if b.String() != s {
			t.Fatal("chunks do not join back")
		}
	})
}

func TestCountPrefix(t *testing.T) {
	s := strings.Repeat("the quick brown fox jumps over the lazy dog. ", 1000)
	if n, c := CountPrefix(s, len(s)+1); n != Count(s) || c != len(s) {
		t.Errorf("whole: %d tokens of %d bytes, want %d of %d", n, c, Count(s), len(s))
	}
	n, c := CountPrefix(s, 5000)
	if c < 5000 || c >= 5000+ChunkBytes {
		t.Errorf("prefix counted %d bytes, want 5000 to %d", c, 5000+ChunkBytes)
	}
	var b strings.Builder
	for ch := range Chunks(s) {
		if b.Len() >= c {
			break
		}
		b.WriteString(ch)
	}
	if want := Count(b.String()); n != want {
		t.Errorf("prefix: %d tokens, want %d", n, want)
	}
}
