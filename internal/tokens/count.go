// Package tokens counts o200k_base tokens: the one tokenizer behind every
// token budget, threshold and estimate in the bridge (compression's
// offload threshold and context meter, ACCP's frame limits, the Claude
// adapter's read limit, the end-to-end suite's measurements). o200k is an
// offline stand-in for the agent's own tokenizer: no offline Claude or
// Gemini tokenizer exists, so counts are estimates.
//
// The tokenizer's cost is not linear in what it is given: its split
// expression converts the whole input to runes at once and backtracks over
// long runs of letters, and one "word" of n bytes is merged in O(n log n).
// Count therefore never hands it more than ChunkBytes at a time (see
// Chunks), which keeps the cost linear and the memory bounded for any
// input, and makes the count of a long run without spaces a close estimate
// rather than the exact figure.
package tokens

import (
	"sync"
	"sync/atomic"

	"github.com/tiktoken-go/tokenizer/codec"
)

// o200k is built on first use: building it parses the vocabulary (tens of
// milliseconds). A built codec is safe for concurrent use.
var o200k = sync.OnceValue(codec.NewO200kBase)

// Count returns the number of o200k_base tokens in s. Text of more than
// ChunkBytes is counted chunk by chunk (Chunks), so the cost is linear in
// len(s) whatever s holds. It is safe for concurrent use and never panics.
func Count(s string) int {
	n := 0
	for c := range Chunks(s) {
		n += countChunk(c)
	}
	return n
}

// CountPrefix counts the tokens of s chunk by chunk until at least
// maxBytes of it are counted: it returns the tokens and the bytes counted
// (len(s) if all of it was). The cost is bounded by maxBytes plus one
// chunk whatever len(s) is.
func CountPrefix(s string, maxBytes int) (n, counted int) {
	for c := range Chunks(s) {
		if counted >= maxBytes {
			break
		}
		n += countChunk(c)
		counted += len(c)
	}
	return n, counted
}

// countChunk counts one chunk of at most ChunkBytes. The codec only fails
// in its strict UTF-8 mode, which is not used; should it fail or panic,
// the chunk is counted as Estimate of its bytes rather than not at all.
func countChunk(c string) (n int) {
	tokenized.Add(int64(len(c)))
	defer func() {
		if recover() != nil {
			n = Estimate(len(c))
		}
	}()
	n, err := o200k().Count(c)
	if err != nil {
		return Estimate(len(c))
	}
	return n
}

// Pieces returns the text of each o200k token of s, in order, chunk by
// chunk as Count counts them: joined, they give s back.
func Pieces(s string) []string {
	var out []string
	for c := range Chunks(s) {
		tokenized.Add(int64(len(c)))
		_, ps, err := o200k().Encode(c)
		if err != nil {
			ps = []string{c}
		}
		out = append(out, ps...)
	}
	return out
}

// tokenized counts the bytes handed to the tokenizer.
var tokenized atomic.Int64

// Tokenized returns how many bytes this process has handed to the
// tokenizer so far: what callers use to check that the tokenizer's work
// is bounded by what they decide, not by what they are given.
func Tokenized() int64 { return tokenized.Load() }

// BytesPerToken is the ratio Estimate assumes: about four bytes per token
// is usual for English and code under o200k.
const BytesPerToken = 4

// Estimate returns the tokens n bytes of text are taken to hold without
// tokenizing them: n / BytesPerToken, rounded up.
func Estimate(n int) int {
	if n <= 0 {
		return 0
	}
	return (n + BytesPerToken - 1) / BytesPerToken
}
