//go:build !amd64

package compress

// codeStartFrom returns the index of the first place in s at or after i
// where a code can start (canStart), or len(s).
func codeStartFrom[T string | []byte](s T, i int) int { return codeStartWords(s, i) }

// markRest is markFrom past its first 16 bytes.
func markRest[T string | []byte](s T, i int) int { return markWords(s, i) }
