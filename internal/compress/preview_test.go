package compress

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// splitLines splits on \n keeping no terminators; a final newline does not
// make an extra empty line.
func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// TestPreviewLines checks firstLines and lastLines against splitLines,
// which splits the whole content.
func TestPreviewLines(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"a", "bc", "\n", "\n\n", " "}
	for range 5000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		all := splitLines(s)
		if countLines(s) != len(all) {
			t.Fatalf("countLines(%q) = %d, want %d", s, countLines(s), len(all))
		}
		for k := 0; k <= 4; k++ {
			if got, want := firstLines(s, k), all[:min(k, len(all))]; !slices.Equal(got, want) {
				t.Fatalf("firstLines(%q, %d) = %q, want %q", s, k, got, want)
			}
			if k > len(all) {
				continue
			}
			if got, want := lastLines(s, k), all[len(all)-k:]; !slices.Equal(got, want) {
				t.Fatalf("lastLines(%q, %d) = %q, want %q", s, k, got, want)
			}
		}
	}
}
