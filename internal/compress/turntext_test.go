package compress

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// tailOf is what turnText.text returns for a turn whose agent text was
// all: its last TurnTextBytes, less at most three bytes of a character
// cut off at the start.
func tailOf(all string) string {
	b := all[max(len(all)-TurnTextBytes, 0):]
	for i := 0; i < 3 && len(b) > 0 && b[0]&0xC0 == 0x80; i++ {
		b = b[1:]
	}
	return b
}

// checkTurnText adds chunks of about the given lengths (cut from text, at
// character boundaries, as JSON string literals; text needs no escapes)
// to a turnText and checks, after each, what addLiteral
// returned and what text returns against the whole turn.
func checkTurnText(t *testing.T, text string, lengths []int) {
	t.Helper()
	var tt turnText
	var all strings.Builder
	at := 0
	for _, n := range lengths {
		n = min(n, len(text)-at)
		for at+n < len(text) && !utf8.RuneStart(text[at+n]) {
			n++ // chunks hold whole characters; the tail need not
		}
		chunk := text[at : at+n]
		at += n
		if got := tt.addLiteral([]byte(`"` + chunk + `"`)); string(got) != chunk {
			t.Fatalf("addLiteral returned %d bytes, want the chunk's %d", len(got), len(chunk))
		}
		all.WriteString(chunk)
		if got, want := tt.text(), tailOf(all.String()); got != want {
			t.Fatalf("after %d bytes of text: text() is %d bytes, want %d (the tail)", all.Len(), len(got), len(want))
		}
	}
}

// TestTurnTextTail checks the turn's tail across many swaps of its two
// buffers, with chunks of every size from a byte to more than the bound,
// in text of one-, two-, three- and four-byte characters (so that the
// tail starts inside a character).
func TestTurnTextTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, unit := range []string{"a", "é", "€", "😀", "ab€😀é"} {
		text := strings.Repeat(unit, 600<<10/len(unit))
		var lengths []int
		for sum := 0; sum < len(text); {
			n := 1 + rng.IntN(3000)
			if rng.IntN(40) == 0 {
				n = TurnTextBytes + rng.IntN(TurnTextBytes)
			}
			lengths = append(lengths, n)
			sum += n
		}
		checkTurnText(t, text, lengths)
	}
}

// FuzzTurnText checks the tail for chunk lengths the fuzzer picks.
func FuzzTurnText(f *testing.F) {
	f.Add([]byte{1, 2, 3}, uint8(0))
	f.Add([]byte{255, 255, 255, 255, 7}, uint8(3))
	f.Fuzz(func(t *testing.T, sizes []byte, unit uint8) {
		units := []string{"a", "é", "€", "😀"}
		u := units[int(unit)%len(units)]
		text := strings.Repeat(u, 400<<10/len(u))
		lengths := make([]int, len(sizes))
		for i, s := range sizes {
			lengths[i] = int(s)*int(s) + 1 // up to 65,026 bytes
		}
		checkTurnText(t, text, lengths)
	})
}
