package accp

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/tokens"
)

func TestValueSize(t *testing.T) {
	tests := []struct {
		name string
		v    Value
	}{
		{"plain", String("hello")},
		{"spaces", String("a b c")},
		{"literal", String("end_turn")},
		{"literal with space", String("123 456")},
		{"escapes", String("line\nnext\t{x}|y,z\r\x01\x7f")},
		{"unicode", String("héllo\u00a0wörld\u2028𝄞\xff")},
		{"empty", String("")},
		{"number", Number("1e400")},
		{"bool", Bool(false)},
		{"ref", Ref("12")},
		{"map", Map(Field{"b", Int(2)}, Field{"a b", String("x")}, Field{"", Null()}, Field{"é", Array()})},
		{"pairs", Array(Value{Kind: KindPair, Fields: []Field{{Key: "k", Val: Map(Field{"x", Int(1)})}}}, Int(3))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := ValueSize(tt.v), len(AppendValue(nil, tt.v)); got != want {
				t.Errorf("ValueSize = %d, canonical text %q is %d bytes", got, AppendValue(nil, tt.v), want)
			}
		})
	}
}

// FuzzLimitsCheck checks that Check and ValueSize agree with the parser
// and AppendValue for any frame the parser accepts, under limits taken
// from the input.
func FuzzLimitsCheck(f *testing.F) {
	seedFrames(f)
	f.Fuzz(func(t *testing.T, s string) {
		loose := Limits{MaxDepth: 1000, MaxElements: 1 << 20, MaxFrameBytes: 1 << 20}
		fr, err := loose.Parse(s, nil)
		if err != nil {
			return
		}
		for _, p := range fr.Params {
			if got, want := ValueSize(p.Val), len(AppendValue(nil, p.Val)); got != want {
				t.Fatalf("ValueSize of %s = %d, want %d", AppendValue(nil, p.Val), got, want)
			}
		}
		canon := fr.String()
		if err := loose.Check(fr); err != nil {
			t.Fatalf("Check rejects an accepted frame: %v", err)
		}
		n := len(s)
		for _, lim := range []Limits{
			{MaxDepth: 1 + n%7, MaxElements: 1 << 20, MaxFrameBytes: 1 << 20},
			{MaxDepth: 1000, MaxElements: 1 + n%40, MaxFrameBytes: 1 << 20},
			{MaxDepth: 1000, MaxElements: 1 << 20, MaxFrameBytes: len(canon) - n%3},
		} {
			_, perr := lim.Parse(canon, nil)
			if cerr := lim.Check(fr); (cerr == nil) != (perr == nil) {
				t.Fatalf("limits %+v: Check %v, Parse %v\n%s", lim, cerr, perr, canon)
			}
		}
	})
}

// TestMaxTokenBytes checks the bound against the pieces o200k makes of
// texts with long runs of one character, where the longest tokens are.
func TestMaxTokenBytes(t *testing.T) {
	l := MaxTokenBytes()
	longest := 0
	for _, s := range []string{strings.Repeat("=", 1000), strings.Repeat(" ", 1000), strings.Repeat("-", 1000),
		strings.Repeat("/", 1000), strings.Repeat("_", 1000), strings.Repeat("\n", 1000), "<|endoftext|>"} {
		for _, p := range tokens.Pieces(s) {
			longest = max(longest, len(p))
		}
	}
	if longest > l || longest < l/2 {
		t.Errorf("MaxTokenBytes() = %d, longest piece seen %d", l, longest)
	}
}
