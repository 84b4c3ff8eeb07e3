package compress

import (
	"fmt"
	"strings"
)

// Level is how full an agent's context window is, per CTX-001's thresholds.
type Level uint8

// The CTX-001 levels, from an empty window to a nearly full one.
const (
	// Green is under 25% of the window: normal operation.
	Green Level = iota
	// Yellow is 25% to under 50%: monitor.
	Yellow
	// Orange is 50% to under 75%: tiers 1 and 2 are active.
	Orange
	// Red is 75% to 85%: tier 3 checkpoint (and the agent's own compaction
	// where it offers one).
	Red
	// Critical is over 85%: checkpoint and roll over to a fresh session.
	Critical
)

var levelNames = [...]string{"GREEN", "YELLOW", "ORANGE", "RED", "CRITICAL"}

// String returns the level's CTX-001 name, e.g. "ORANGE".
func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", l)
}

// ParseLevel returns the level named s (case-insensitive).
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if strings.EqualFold(n, s) {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("unknown context level %q: want GREEN, YELLOW, ORANGE, RED or CRITICAL", s)
}

// Classify returns the level of a window of size tokens holding used
// tokens. The boundaries follow CTX-001: < 25% GREEN, 25-50% YELLOW,
// 50-75% ORANGE, 75-85% RED, > 85% CRITICAL (85% itself is RED). A window
// of size zero or less is GREEN: nothing is known about it.
func Classify(used, size int64) Level {
	if size <= 0 || used <= 0 {
		return Green
	}
	// Integer arithmetic in per-mille avoids float rounding at the edges.
	switch pm := used * 1000 / size; {
	case used*100 > size*85:
		return Critical
	case pm >= 750:
		return Red
	case pm >= 500:
		return Orange
	case pm >= 250:
		return Yellow
	}
	return Green
}

// Usage is a session's context fill as the meter knows it.
type Usage struct {
	// Used is the number of tokens in the agent's context.
	Used int64
	// Size is the context window in tokens.
	Size int64
	// Estimated is true when Used is the bridge's own estimate, false when
	// the agent reported it in a usage_update.
	Estimated bool
}

// Level classifies u.
func (u Usage) Level() Level { return Classify(u.Used, u.Size) }

// Percent returns Used as a percentage of Size (0 if Size is unknown).
func (u Usage) Percent() float64 {
	if u.Size <= 0 {
		return 0
	}
	return float64(u.Used) * 100 / float64(u.Size)
}

// Meter tracks one session's context fill. The agent's own usage_update
// figures win whenever it sends them; until then (and for agents that never
// do) the meter adds up what the bridge sees enter the agent's context.
//
// Streamed text (the agent's output, tool results) is never tokenized on
// the forwarding path: it counts at four bytes per token at once (AddText),
// and a bounded sample of it is kept (Sample) so that, off the forwarding
// path, the turn's byte estimate can be replaced by the sample's o200k
// tokens per byte times the turn's bytes (Settle). A turn whose text fits
// in the sample is counted exactly. Memory is bounded by SampleBytes
// whatever the turn's length, and nothing is sampled once the agent
// reports its own usage. A Meter is not safe for concurrent use; the
// pipeline guards it.
type Meter struct {
	size      int64 // configured window
	estimate  int64 // bridge's own count
	reported  Usage // last usage_update from the agent
	hasReport bool

	// Streamed text since the last settlement: its bytes, what they added
	// to estimate, and the sample. gen changes on Reset, so a settlement
	// computed before a reset is not applied after it.
	pendingBytes int64
	pendingEst   int64
	sample       Sample
	gen          int

	// The tokens per byte of the samples counted so far, and the bytes
	// streamed since the last one was: a turn is settled from this ratio
	// without tokenizing until SettleEvery more bytes have streamed.
	ratioTokens, ratioBytes int64
	sinceCount              int64
}

// SettleEvery is how many bytes of streamed text pass between two samples
// the meter has tokenized; the turns in between are settled at the
// session's tokens per byte so far. Short turns would otherwise tokenize
// most of their text.
const SettleEvery = 1 << 20

// NewMeter returns a meter for a window of size tokens.
func NewMeter(size int64) *Meter { return &Meter{size: size} }

// Add records n tokens entering the agent's context.
func (m *Meter) Add(n int) { m.estimate += int64(n) }

// AddText records streamed text entering the agent's context: four bytes
// per token at once, and a chance of a place in the sample.
func (m *Meter) AddText(text string) {
	m.AddStreamed(len(text), func() string { return text })
}

// AddStreamed is AddText for n bytes of text that text returns; text is
// called only if the piece is sampled, so a caller holding an encoded form
// (a JSON string literal) decodes only the few pieces kept.
func (m *Meter) AddStreamed(n int, text func() string) {
	if n <= 0 {
		return
	}
	est := int64(estimateFromBytes(n))
	m.estimate += est
	m.pendingEst += est
	m.pendingBytes += int64(n)
	if !m.hasReport {
		m.sample.offer(n, text)
	}
}

// Pending is the streamed text added since the last settlement: its
// bytes, the estimate they contributed, a sample of it (if it is to be
// tokenized) or the session's tokens per byte so far, and the meter's
// generation. Count computes its tokens; it may run on any goroutine.
type Pending struct {
	Bytes, Est int64
	Sample     Sample
	Gen        int
	// count says whether to tokenize Sample; if not, ratioTokens over
	// ratioBytes is the tokens per byte to settle at.
	count                   bool
	ratioTokens, ratioBytes int64
}

// Settlement is what Count found: the pending text's tokens and, if a
// sample was tokenized, its tokens and bytes.
type Settlement struct {
	Tokens                    int64
	SampleTokens, SampleBytes int64
}

// Count returns the pending text's o200k tokens: the sample's count if the
// sample holds all of it, otherwise its tokens per byte times Bytes; or,
// when no sample is due, the session's tokens per byte times Bytes.
func (p Pending) Count() Settlement {
	if !p.count {
		return Settlement{Tokens: (p.Bytes*p.ratioTokens + p.ratioBytes/2) / max(p.ratioBytes, 1)}
	}
	text, bytes, whole := p.Sample.text()
	n := int64(CountTokens(text))
	st := Settlement{Tokens: n, SampleTokens: n, SampleBytes: bytes}
	if !whole && bytes > 0 {
		st.Tokens = (n*p.Bytes + bytes/2) / bytes
	}
	return st
}

// TakePending hands over what was added since the last settlement, for
// Count and Settle, and starts a new sample.
func (m *Meter) TakePending() Pending {
	m.sinceCount += m.pendingBytes
	p := Pending{Bytes: m.pendingBytes, Est: m.pendingEst, Sample: m.sample, Gen: m.gen,
		count: m.ratioBytes == 0 || m.sinceCount >= SettleEvery, ratioTokens: m.ratioTokens, ratioBytes: m.ratioBytes}
	if p.count {
		m.sinceCount = 0
	} else {
		p.Sample = Sample{}
	}
	m.pendingBytes, m.pendingEst, m.sample = 0, 0, Sample{seed: m.sample.seed + 1}
	return p
}

// Settle replaces p's byte estimate with st (p.Count()), unless the meter
// was reset since TakePending returned p, and keeps the sample's tokens per
// byte for the turns settled without one.
func (m *Meter) Settle(p Pending, st Settlement) {
	if st.SampleBytes > 0 {
		m.ratioTokens += st.SampleTokens
		m.ratioBytes += st.SampleBytes
		if m.ratioBytes > 1<<30 {
			m.ratioTokens, m.ratioBytes = m.ratioTokens/2, m.ratioBytes/2
		}
	}
	if p.Gen == m.gen {
		m.estimate += st.Tokens - p.Est
	}
}

// Report records the agent's own usage_update figures.
func (m *Meter) Report(used, size int64) {
	m.reported = Usage{Used: used, Size: size}
	m.hasReport = true
	m.sample = Sample{seed: m.sample.seed}
}

// Reset replaces the bridge's estimate with n tokens (after a rollover, the
// new session holds only what the bridge sent it) and forgets the agent's
// last report, which described the old session.
func (m *Meter) Reset(n int) {
	m.gen++
	m.pendingBytes, m.pendingEst, m.sample = 0, 0, Sample{seed: m.sample.seed}
	m.estimate = int64(n)
	m.hasReport = false
	m.reported = Usage{}
}

// AgentReports reports whether the agent has sent a usage_update.
func (m *Meter) AgentReports() bool { return m.hasReport }

// Usage returns the current fill: the agent's report if there is one, the
// bridge's estimate otherwise.
func (m *Meter) Usage() Usage {
	if m.hasReport {
		u := m.reported
		if u.Size <= 0 {
			u.Size = m.size
		}
		return u
	}
	return Usage{Used: m.estimate, Size: m.size, Estimated: true}
}
