package tokens

import (
	"iter"
	"unicode/utf8"
)

// ChunkBytes is the most Count hands the tokenizer at once.
const ChunkBytes = 2048

// Chunks yields s in chunks of at most ChunkBytes that join back to s.
// A chunk ends before the last whitespace byte in its second half, so
// words stay whole (o200k starts a token with the space before a word);
// a run with no whitespace there is cut at a UTF-8 character boundary,
// or anywhere in bytes that are not UTF-8.
func Chunks(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for len(s) > ChunkBytes {
			cut := cutAt(s[:ChunkBytes+1])
			if !yield(s[:cut]) {
				return
			}
			s = s[cut:]
		}
		if s != "" {
			yield(s)
		}
	}
}

// cutAt returns where to end a chunk of window, which is one byte longer
// than a chunk may be: the byte at the cut is the next chunk's first.
func cutAt(window string) int {
	last := len(window) - 1
	for i := last; i >= last/2; i-- {
		switch window[i] {
		case ' ', '\n', '\t', '\r':
			if i > 0 {
				return i
			}
		}
	}
	// Back off continuation bytes to a character's first byte, at most
	// three (the longest UTF-8 sequence is four bytes).
	for i := last; i > last-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(window[i]) {
			return i
		}
	}
	return last
}
