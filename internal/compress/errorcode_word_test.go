package compress

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestNonWord checks the eight-bytes-a-step test for bytes that end a
// word against wordByte: every byte value at every position, among
// neighbours at the edges of the word ranges and of ASCII.
func TestNonWord(t *testing.T) {
	eachProbe([]byte{0, ' ', '/', '0', '9', ':', '@', 'A', 'Z', '[', '^', '_', '`', 'a', 'z', '{', 0x7F, 0x80, 0xFF}, func(w uint64, _, _ byte) {
		var want uint64
		for i := range 8 {
			if !wordByte[byte(w>>(8*i))] {
				want |= 0x80 << (8 * i)
			}
		}
		if got := nonWord(w); got != want {
			t.Fatalf("nonWord(%#016x) = %#016x, want %#016x", w, got, want)
		}
	})
}

// FuzzWordEndFrom checks wordEndFrom against the byte-by-byte walk it
// replaces, from every start.
func FuzzWordEndFrom(f *testing.F) {
	f.Add("aGVsbG8gd29ybGQ+TS2304/abc_DEF0123456789 x")
	f.Add("\xffabc\x80def")
	f.Fuzz(func(t *testing.T, s string) {
		for i := range len(s) + 1 {
			want := i
			for want < len(s) && wordByte[s[want]] {
				want++
			}
			if got := wordEndFrom(s, i); got != want {
				t.Fatalf("wordEndFrom(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
	})
}

// runsText is n bytes as the soak's runs mix writes them: base64's
// alphabet, one long run without spaces, with a code now and then.
func runsText(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	rng := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	for b.Len() < n {
		if rng.IntN(2000) == 0 {
			b.WriteString("/TS2304+")
		}
		b.WriteByte(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

// TestFindErrorCodesRuns checks the scanner against the regular
// expression on runs text.
func TestFindErrorCodesRuns(t *testing.T) {
	text := runsText(64 << 10)
	if got, want := findErrorCodes(text, 20), errorCode.FindAllString(text, 20); !slices.Equal(got, want) {
		t.Fatalf("findErrorCodes on runs text = %q, the regexp finds %q", got, want)
	}
}

// BenchmarkFindErrorCodesRuns measures the scanner on 20 KiB of runs text
// (command output as the soak's runs mix has it).
func BenchmarkFindErrorCodesRuns(b *testing.B) {
	text := []byte(runsText(20 << 10))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		findErrorCodes(text, 20)
	}
}
