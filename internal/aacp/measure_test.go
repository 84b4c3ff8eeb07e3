package aacp

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/tokens"
)

// draftEnglish is the English instruction of draft section 1, which the
// draft's first packet replaces.
const draftEnglish = "Please retrieve the employee salary records for the period ending 31 August 2024. " +
	"I need all active employees, their departments, cost centres, base salary, any changes made this month, " +
	"and pension contribution rates. Return as JSON array."

// TestTokens measures the o200k_base tokens of the draft's English
// instruction and of the packet the RuleEncoder makes of it. The draft
// reports 56 and 52 tokens from Claude's API; o200k is GPT-4o's tokenizer.
// The packet must be the smaller.
func TestTokens(t *testing.T) {
	p, err := (&RuleEncoder{}).Encode(draftEnglish)
	if err != nil {
		t.Fatal(err)
	}
	en, pk := tokens.Pieces(draftEnglish), tokens.Pieces(p.String())
	t.Logf("o200k tokens: English %d (%d bytes), packet %d (%d bytes), %+.1f%%",
		len(en), len(draftEnglish), len(pk), len(p.String()), 100*(float64(len(pk))/float64(len(en))-1))
	if len(pk) >= len(en) {
		t.Errorf("packet has %d tokens, English %d: no saving", len(pk), len(en))
	}
}

func BenchmarkParse(b *testing.B) {
	benchParse(b, "FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08|filter:status=active|fmt:json")
}

func BenchmarkParseEscaped(b *testing.B) {
	benchParse(b, `SEND|CS|return:CS-Agent|p:2|aacp:1.1|subj:Order 7 \| refund \\ credit|to:ops\|desk|att:https://x.example/a:b`)
}

// benchParse parses the packet s, which must be accepted, b.N times.
func benchParse(b *testing.B, s string) {
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if p, _ := Parse(s); p == nil {
			b.Fatal("rejected")
		}
	}
}

func BenchmarkRuleEncode(b *testing.B) {
	var e RuleEncoder
	for b.Loop() {
		if _, err := e.Encode(draftEnglish); err != nil {
			b.Fatal(err)
		}
	}
}
