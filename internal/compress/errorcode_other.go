//go:build !amd64

package compress

// codeStartFrom returns the index of the first capital ASCII letter or
// digit in s at or after i that starts a word, or len(s).
func codeStartFrom[T string | []byte](s T, i int) int { return codeStartWords(s, i) }

// markRest is markFrom past its first 16 bytes.
func markRest[T string | []byte](s T, i int) int { return markWords(s, i) }
