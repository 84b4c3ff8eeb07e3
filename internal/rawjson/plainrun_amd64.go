package rawjson

// plainRunSSE2 is implemented in plainrun_amd64.s.
//
//go:noescape
func plainRunSSE2(b []byte, i int) int

// plainRun returns the offset of the first byte at or after i that is '"',
// '\\' or a control character (below 0x20), or len(b). The SSE2 scan
// covers all but the last few bytes, which the portable scan finishes.
func plainRun(b []byte, i int) int {
	if len(b)-i >= 16 {
		i = plainRunSSE2(b, i)
	}
	return plainRunWords(b, i)
}
