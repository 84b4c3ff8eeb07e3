package compress

import "testing"

// checkWide fails t unless codeStartSSE2 and markSSE2 from i find
// exactly start and mark (the first, from codeStartBytes and markBytes)
// when it lies in the 16-byte steps they scan, and stop where those end
// otherwise: a start missed would be missed by findErrorCodes, one made
// up would cost a look.
func checkWide(t *testing.T, s string, i, start, mark int) {
	t.Helper()
	if len(s)-i < 16 {
		return
	}
	end := i + (len(s)-i)/16*16
	if len(s)-i >= 17 {
		// Each step of codeStartSSE2 reads one byte past its 16.
		startEnd := i + (len(s)-i-1)/16*16
		if got, want := codeStartSSE2(dataOf(s), len(s), i, i > 0 && wordByte[s[i-1]], i > 0 && s[i-1] == ' '), min(start, startEnd); got != want {
			t.Fatalf("codeStartSSE2(%q, %d) = %d, want %d", s, i, got, want)
		}
	}
	if got, want := markSSE2(dataOf(s), len(s), i), min(mark, end); got != want {
		t.Fatalf("markSSE2(%q, %d) = %d, want %d", s, i, got, want)
	}
}
