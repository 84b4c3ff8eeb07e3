package tokens

import "sync"

// MaxTokenBytes returns the length in bytes of the longest o200k_base
// token, special tokens included (128), so a text of n bytes holds at
// least n/MaxTokenBytes() tokens: a caller can tell that a long text is
// over a token bound without tokenizing it. The first call takes some
// 60 ms.
func MaxTokenBytes() int { return maxTokenBytes() }

var maxTokenBytes = sync.OnceValue(func() int {
	c := o200k()
	n := len("<|endofprompt|>")
	// Decode of one id gives its bytes unchanged; the ids are dense, so a
	// long stretch of unknown ids is past the end.
	for id, misses := uint(0), 0; misses < 1024; id++ {
		s, err := c.Decode([]uint{id})
		if err != nil {
			misses++
			continue
		}
		misses = 0
		n = max(n, len(s))
	}
	return n
})
