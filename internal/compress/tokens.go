package compress

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
	"github.com/tiktoken-go/tokenizer/codec"
)

// o200k is built once, on first use: building the codec parses its
// vocabulary, which takes tens of milliseconds. A built codec is safe for
// concurrent use (its split expression and vocabulary are read-only).
var (
	o200kOnce sync.Once
	o200k     tokenizer.Codec
)

// CountTokens returns the number of o200k_base tokens in s. o200k is an
// offline stand-in for the agent's own tokenizer; figures are estimates.
func CountTokens(s string) int {
	if s == "" {
		return 0
	}
	o200kOnce.Do(func() { o200k = codec.NewO200kBase() })
	n, err := o200k.Count(s)
	if err != nil {
		// Count fails only in strict UTF-8 mode, which is not used; fall
		// back to the byte estimate rather than report nothing.
		return estimateFromBytes(len(s))
	}
	return n
}

// bytesPerToken is the ratio the meter uses for text it does not tokenize
// (streamed agent output; see Meter). Four bytes per token is the usual
// figure for English and code under o200k.
const bytesPerToken = 4

func estimateFromBytes(n int) int { return (n + bytesPerToken - 1) / bytesPerToken }
