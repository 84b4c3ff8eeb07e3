//go:build !amd64

package rawjson

// plainRun returns the offset of the first byte at or after i that is '"',
// '\\' or a control character (below 0x20), or len(b).
func plainRun(b []byte, i int) int { return plainRunWords(b, i) }

// stringRun returns the offset of the first byte at or after i that a
// string's check must look at: '"', a control character, or a backslash
// that does not start one of the two-byte escapes \" \\ \/ \b \f \n \r \t,
// which it steps over; or len(b). seen is the OR of the bytes it read,
// eight to a word (see stringRunWords).
func stringRun(b []byte, i int) (end int, seen uint64) { return stringRunWords(b, i) }
