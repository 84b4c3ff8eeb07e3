package accp

import (
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

var o200k = sync.OnceValue(codec.NewO200kBase)

// CountTokens returns the number of o200k_base tokens in s, the BPE
// tokenizer used for every budget in this package. It is safe for
// concurrent use.
func CountTokens(s string) int {
	if s == "" {
		return 0
	}
	n, err := o200k().Count(s)
	if err != nil {
		// The codec only fails on invalid UTF-8; count bytes as a ceiling.
		return len(s)
	}
	return n
}

// MaxTokenBytes returns the length in bytes of the longest o200k_base
// token, special tokens included (128), so a text of n bytes is at least
// n/MaxTokenBytes() tokens: a caller can tell that a long text is over a
// token bound without tokenizing it. The first call takes some 60 ms.
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

// Frame size limits of section 3.4, in o200k tokens.
const (
	HeaderSoftTokens = 5
	HeaderHardTokens = 10
	BodySoftTokens   = 50
	BodyHardTokens   = 200
	MetaSoftTokens   = 10
	MetaHardTokens   = 30
	FrameSoftTokens  = 65
	FrameHardTokens  = 240
)

// Tier budgets of section 5.1, in o200k tokens.
const (
	HotBudgetTokens        = 500
	HotCheckpointTokens    = 400 // 5.2 trigger 2
	WarmCheckpointTokens   = 200
	SummaryMaxTokens       = 100 // 5.3 step 3
	ExternalizeValueLength = 50  // 3.3 rule 4, in characters
)

// FrameTokens is the token count of one frame by component (section 3.4).
type FrameTokens struct {
	Header, Body, Meta, Total int
}

// MeasureFrame counts the o200k tokens of a frame's header ("@agent>intent"),
// body (":op{...}") and metadata ("[...]"), and of the whole line.
//
// The line is tokenized once; a token that spans two components (such as
// "}[") counts for the one it starts in.
func MeasureFrame(line string) FrameTokens {
	var ft FrameTokens
	h, b, _ := splitComponents(line)
	_, pieces, err := o200k().Encode(line)
	if err != nil {
		h, b, m := splitComponents(line)
		return FrameTokens{Header: len(h), Body: len(b), Meta: len(m), Total: len(line)}
	}
	off := 0
	for _, p := range pieces {
		switch {
		case off < len(h):
			ft.Header++
		case off < len(h)+len(b):
			ft.Body++
		default:
			ft.Meta++
		}
		off += len(p)
	}
	ft.Total = len(pieces)
	return ft
}

// splitComponents cuts a formatted frame into header, body and metadata
// text. The header ends at the first ":" (agent ids and intents hold none);
// the metadata is the trailing "[...]" after the body's closing brace.
func splitComponents(line string) (header, body, meta string) {
	i := 0
	for i < len(line) && line[i] != ':' {
		i++
	}
	header = line[:i]
	rest := line[i:]
	// Find the body's closing brace by scanning with escapes.
	depth := 0
	for j := 0; j < len(rest); j++ {
		switch rest[j] {
		case '\\':
			j++
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 && rest[j] == '}' {
				return header, rest[:j+1], rest[j+1:]
			}
		}
	}
	return header, rest, ""
}

// Exceeds reports whether ft is over any hard limit of section 3.4.
func (ft FrameTokens) Exceeds() bool {
	return ft.Total > FrameHardTokens || ft.Header > HeaderHardTokens || ft.Body > BodyHardTokens || ft.Meta > MetaHardTokens
}
