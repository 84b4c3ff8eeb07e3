//go:build !amd64

package rawjson

// plainRun returns the offset of the first byte at or after i that is '"',
// '\\' or a control character (below 0x20), or len(b).
func plainRun(b []byte, i int) int { return plainRunWords(b, i) }

// stringRun returns the offset of the first byte at or after i that a
// string's check must look at: '"', a control character, or a backslash
// that does not start one of the two-byte escapes \" \\ \/ \b \f \n \r \t,
// which it steps over; or len(b).
func stringRun(b []byte, i int) int { return stringRunWords(b, i) }
