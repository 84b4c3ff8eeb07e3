package accp

import "github.com/acp-bridge/acp-bridge/internal/tokens"

// CountTokens returns the number of o200k_base tokens in s, the BPE
// tokenizer used for every budget in this package (tokens.Count). It is
// safe for concurrent use.
func CountTokens(s string) int { return tokens.Count(s) }

// MaxTokenBytes returns the length in bytes of the longest o200k_base
// token (tokens.MaxTokenBytes), so a text of n bytes is at least
// n/MaxTokenBytes() tokens.
func MaxTokenBytes() int { return tokens.MaxTokenBytes() }

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
	pieces := tokens.Pieces(line)
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
