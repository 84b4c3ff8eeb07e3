package compress

import "testing"

// checkWide fails t unless codeStartSSE2 from i finds exactly want (the
// first start, from codeStartBytes) when it lies in the 16-byte steps it
// scans, and stops where they end otherwise: a start it missed would be
// missed by findErrorCodes, one it made up would cost a look.
func checkWide(t *testing.T, s string, i, want int) {
	t.Helper()
	if len(s)-i < 16 {
		return
	}
	end := i + (len(s)-i)/16*16
	if want > end {
		want = end
	}
	if got := codeStartSSE2(dataOf(s), len(s), i, i > 0 && wordByte[s[i-1]]); got != want {
		t.Fatalf("codeStartSSE2(%q, %d) = %d, want %d", s, i, got, want)
	}
}
