package rawjson

import (
	"encoding/binary"

	"golang.org/x/sys/cpu"
)

// plainRunSSE2 is implemented in plainrun_amd64.s.
//
//go:noescape
func plainRunSSE2(b []byte, i int) int

// stringRunSSE2 is implemented in plainrun_amd64.s.
//
//go:noescape
func stringRunSSE2(b []byte, i int) (end int, seen uint64)

// stringRunAVX2 is implemented in stringrun_avx2_amd64.s. It must be
// called only where the processor has AVX2 (scanAVX2).
//
//go:noescape
func stringRunAVX2(b []byte, i int) (end int, seen uint64)

// scanAVX2 says whether stringRun reads long strings with stringRunAVX2,
// 64 bytes a step, rather than stringRunSSE2, 32: whether the processor
// (and the system, which must save the wider registers) has AVX2.
var scanAVX2 = cpu.X86.HasAVX2

// plainRun returns the offset of the first byte at or after i that is '"',
// '\\' or a control character (below 0x20), or len(b). The first 16 bytes
// are tested a word at a time, which is where most strings of a message
// (keys, ids, kinds) end, as a call into the SSE2 scan costs more than
// that; the SSE2 scan covers the rest but the last few bytes, which the
// portable scan finishes.
func plainRun(b []byte, i int) int {
	for range 2 {
		if i+8 > len(b) {
			return plainRunWords(b, i)
		}
		if m := special(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + firstFlagged(m)
		}
		i += 8
	}
	if len(b)-i >= 16 {
		i = plainRunSSE2(b, i)
	}
	return plainRunWords(b, i)
}

// stringRun returns the offset of the first byte at or after i that a
// string's check must look at: '"', a control character, or a backslash
// that does not start one of the two-byte escapes \" \\ \/ \b \f \n \r \t,
// which it steps over; or len(b). seen is the OR of the bytes it read,
// eight to a word (see stringRunWords).
func stringRun(b []byte, i int) (end int, seen uint64) { return stringRunOn(b, i, scanAVX2) }

// stringRunOn is stringRun with the vector scan chosen by avx2 (true only
// where the processor has AVX2), so that tests read each. Short strings
// are read as plainRun reads them; the vector scan reads the rest, escapes
// and all, in one call: the AVX2 scan what is 64 bytes or longer.
func stringRunOn(b []byte, i int, avx2 bool) (end int, seen uint64) {
	for range 2 {
		if i+8 > len(b) {
			end, s := stringRunWords(b, i)
			return end, seen | s
		}
		w := binary.LittleEndian.Uint64(b[i:])
		seen |= w
		m := special(w)
		if m == 0 {
			i += 8
			continue
		}
		i += firstFlagged(m)
		if i+1 >= len(b) || b[i] != '\\' || !simpleEscape(b[i+1]) {
			return i, seen
		}
		i += 2
	}
	var s uint64
	switch n := len(b) - i; {
	case avx2 && n >= 64:
		i, s = stringRunAVX2(b, i)
	case n >= 16:
		i, s = stringRunSSE2(b, i)
	}
	end, s2 := stringRunWords(b, i)
	return end, seen | s | s2
}
