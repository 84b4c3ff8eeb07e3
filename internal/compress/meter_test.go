package compress

import (
	"github.com/acp-bridge/acp-bridge/internal/tokens"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name       string
		used, size int64
		want       Level
	}{
		{"empty", 0, 200000, Green},
		{"unknown window", 5000, 0, Green},
		{"just under 25%", 49999, 200000, Green},
		{"25% is yellow", 50000, 200000, Yellow},
		{"just under 50%", 99999, 200000, Yellow},
		{"50% is orange", 100000, 200000, Orange},
		{"just under 75%", 149999, 200000, Orange},
		{"75% is red", 150000, 200000, Red},
		{"85% is still red", 170000, 200000, Red},
		{"just over 85% is critical", 170001, 200000, Critical},
		{"over the window", 250000, 200000, Critical},
		{"small window", 3, 4, Red},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.used, tt.size); got != tt.want {
				t.Errorf("Classify(%d, %d) = %s, want %s", tt.used, tt.size, got, tt.want)
			}
		})
	}
}

func TestParseLevel(t *testing.T) {
	for l := Green; l <= Critical; l++ {
		got, err := ParseLevel(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l.String(), got, err)
		}
	}
	if _, err := ParseLevel("PURPLE"); err == nil {
		t.Error("ParseLevel(PURPLE) succeeded")
	}
}

func TestMeterPrefersAgentReport(t *testing.T) {
	m := NewMeter(1000)
	m.Add(300)
	if u := m.Usage(); !u.Estimated || u.Used != 300 || u.Level() != Yellow {
		t.Fatalf("estimate: got %+v level %s", u, u.Level())
	}
	m.AddText(strings.Repeat("abcd", 100)) // 100 tokens at four bytes per token
	if u := m.Usage(); u.Used != 400 {
		t.Fatalf("after AddText: used %d, want 400", u.Used)
	}
	m.Report(1800, 2000)
	if u := m.Usage(); u.Estimated || u.Used != 1800 || u.Size != 2000 || u.Level() != Critical {
		t.Fatalf("reported: got %+v level %s", u, u.Level())
	}
	m.Add(10000) // estimates do not override a report
	if u := m.Usage(); u.Used != 1800 {
		t.Fatalf("estimate overrode the report: %+v", u)
	}
	m.Reset(50)
	if u := m.Usage(); !u.Estimated || u.Used != 50 || m.AgentReports() {
		t.Fatalf("after Reset: %+v", u)
	}
}

// TestMeterSettle: streamed text is estimated from bytes at once and counted
// with o200k when settled (exactly while it fits in the sample); a
// settlement from before a Reset is ignored.
func TestMeterSettle(t *testing.T) {
	m := NewMeter(100000)
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)
	m.AddText(text)
	if u := m.Usage(); u.Used != int64(estimateFromBytes(len(text))) {
		t.Fatalf("before settling: used %d, want the byte estimate %d", u.Used, estimateFromBytes(len(text)))
	}
	p := m.TakePending()
	m.Settle(p, p.Count())
	if got, want := m.Usage().Used, int64(CountTokens(text)); got != want {
		t.Fatalf("after settling: used %d, want the o200k count %d", got, want)
	}
	if want := int64(estimateFromBytes(len(text))); m.Usage().Used == want {
		t.Fatalf("settling left the byte estimate %d in place", want)
	}
	m.AddText(text)
	p = m.TakePending()
	m.Reset(7)
	m.Settle(p, p.Count())
	if u := m.Usage(); u.Used != 7 {
		t.Fatalf("a settlement from before Reset was applied: used %d, want 7", u.Used)
	}
}

// TestMeterSampleEstimate: a stream far larger than the sample settles to
// within a few percent of its o200k count, prose-like and run-like, and
// the meter holds no more than SampleBytes of it.
func TestMeterSampleEstimate(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("the bridge forwards each message as it came and the agent reads files runs tests")
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for _, mix := range []string{"prose", "runs"} {
		m := NewMeter(1 << 30)
		var all strings.Builder
		for i := 0; i < 3000; i++ {
			var b strings.Builder
			n := 1 + r.IntN(1024)
			for b.Len() < n {
				if mix == "prose" {
					b.WriteString(words[r.IntN(len(words))] + " ")
				} else {
					b.WriteByte(alpha[r.IntN(len(alpha))])
				}
			}
			m.AddText(b.String())
			all.WriteString(b.String())
		}
		p := m.TakePending()
		sample, n, whole := p.Sample.text()
		if whole || n > SampleBytes || len(sample) > SampleBytes {
			t.Fatalf("%s: sample of %d bytes (whole %v) from %d", mix, n, whole, all.Len())
		}
		got, want := p.Count().Tokens, int64(CountTokens(all.String()))
		off := float64(got-want) / float64(want)
		t.Logf("%s: %d bytes, o200k %d, settled from the sample %d (%+.1f%%)", mix, all.Len(), want, got, 100*off)
		if off < -0.1 || off > 0.1 {
			t.Errorf("%s: settled %d, o200k count %d: %.1f%% off", mix, got, want, 100*off)
		}
	}
}

// TestMeterSettlesAtRatio: once a sample is counted, turns are settled at
// the session's tokens per byte without tokenizing, until SettleEvery more
// bytes have streamed.
func TestMeterSettlesAtRatio(t *testing.T) {
	m := NewMeter(1 << 40)
	piece := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20) // 900 bytes
	turn := strings.Repeat(piece, 15)                                            // fits in the sample
	settle := func() (Settlement, int64) {
		before := tokens.Tokenized()
		for range 15 {
			m.AddText(piece)
		}
		p := m.TakePending()
		st := p.Count()
		m.Settle(p, st)
		return st, tokens.Tokenized() - before
	}
	if st, tok := settle(); tok == 0 || st.Tokens != int64(CountTokens(turn)) {
		t.Fatalf("first turn: %d tokens, %d bytes tokenized; want the exact %d", st.Tokens, tok, CountTokens(turn))
	}
	n := 1
	for ; int64(n*len(turn)) < SettleEvery; n++ {
		st, tok := settle()
		if tok != 0 {
			t.Fatalf("turn %d tokenized %d bytes before SettleEvery", n+1, tok)
		}
		if d := st.Tokens - int64(CountTokens(turn)); d < -2 || d > 2 {
			t.Fatalf("turn %d settled at %d tokens from the ratio, o200k %d", n+1, st.Tokens, CountTokens(turn))
		}
	}
	if _, tok := settle(); tok == 0 {
		t.Errorf("no sample tokenized after %d bytes", (n+1)*len(turn))
	}
}

func TestCountTokens(t *testing.T) {
	if n := CountTokens(""); n != 0 {
		t.Errorf("empty: %d", n)
	}
	// "hello world" is two o200k tokens.
	if n := CountTokens("hello world"); n != 2 {
		t.Errorf("hello world: %d tokens, want 2", n)
	}
}

func TestPipelineDefaults(t *testing.T) {
	p, err := New(Config{CacheDir: t.TempDir()}, nopSender{})
	if err != nil {
		t.Fatal(err)
	}
	if p.OffloadTokens() != DefaultOffloadTokens || p.cfg.ContextSize != DefaultContextSize {
		t.Errorf("defaults: offload %d, context %d", p.OffloadTokens(), p.cfg.ContextSize)
	}
	if _, err := New(Config{}, nopSender{}); err == nil {
		t.Error("New without a cache directory succeeded")
	}
}
