//go:build !amd64

package rawjson

// plainRun returns the offset of the first byte at or after i that is '"',
// '\\' or a control character (below 0x20), or len(b).
func plainRun(b []byte, i int) int { return plainRunWords(b, i) }
