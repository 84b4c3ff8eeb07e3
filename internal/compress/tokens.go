package compress

import "github.com/acp-bridge/acp-bridge/internal/tokens"

// CountTokens returns the o200k_base tokens in s: exactly when s is at most
// CountBytes long, otherwise scaled from the count of its first CountBytes
// (tokens.CountPrefix), so no content makes compression tokenize more than
// CountBytes of it, however often it is measured. o200k is an offline
// stand-in for the agent's own tokenizer; figures are estimates.
func CountTokens(s string) int {
	n, _ := measure(s)
	return n
}

// CountBytes is the most of one text CountTokens tokenizes.
const CountBytes = 128 << 10

// measure returns CountTokens(s) and whether it is a count of all of s
// rather than scaled.
func measure(s string) (int, bool) {
	n, counted := tokens.CountPrefix(s, CountBytes)
	if counted >= len(s) {
		return n, true
	}
	return int(int64(n) * int64(len(s)) / int64(counted)), false
}

// bytesPerToken is the ratio the meter uses for text it does not tokenize
// (streamed agent output; see Meter).
const bytesPerToken = tokens.BytesPerToken

func estimateFromBytes(n int) int { return tokens.Estimate(n) }
