package compress

import "unsafe"

// codeStartSSE2 is implemented in errorcode_amd64.s: codeStartFrom 16
// bytes a step, up to the last few bytes (it returns the offset at which
// fewer than 17 remain unscanned if it found no place before).
//
//go:noescape
func codeStartSSE2(p *byte, n, i int, prevWord, prevSpace bool) int

// codeStartFrom returns the index of the first place in s at or after i
// where a code can start (canStart), or len(s): SSE2 for all but the last
// few bytes, which the portable scan finishes.
func codeStartFrom[T string | []byte](s T, i int) int {
	if len(s)-i >= 17 {
		i = codeStartSSE2(dataOf(s), len(s), i, i > 0 && wordByte[s[i-1]], i > 0 && s[i-1] == ' ')
	}
	return codeStartWords(s, i)
}

// markSSE2 is implemented in errorcode_amd64.s: markFrom 16 bytes a step,
// up to the last few bytes, as codeStartSSE2.
//
//go:noescape
func markSSE2(p *byte, n, i int) int

// markRest is markFrom past its first 16 bytes: SSE2 for all but the last
// few bytes, which the portable scan finishes.
func markRest[T string | []byte](s T, i int) int {
	if len(s)-i >= 16 {
		i = markSSE2(dataOf(s), len(s), i)
	}
	return markWords(s, i)
}

// dataOf returns the address of s's first byte: a string and a slice both
// begin with it. s must not be empty.
func dataOf[T string | []byte](s T) *byte { return *(**byte)(unsafe.Pointer(&s)) }
