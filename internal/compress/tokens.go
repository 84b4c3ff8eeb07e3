package compress

import "github.com/acp-bridge/acp-bridge/internal/tokens"

// CountTokens returns the number of o200k_base tokens in s (tokens.Count:
// linear in len(s) for any content). o200k is an offline stand-in for the
// agent's own tokenizer; figures are estimates.
func CountTokens(s string) int { return tokens.Count(s) }

// bytesPerToken is the ratio the meter uses for text it does not tokenize
// (streamed agent output; see Meter).
const bytesPerToken = tokens.BytesPerToken

func estimateFromBytes(n int) int { return tokens.Estimate(n) }
