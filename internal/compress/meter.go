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
// Exact o200k counts are used for what the bridge tokenizes anyway (prompts,
// tool results, offload candidates); streamed agent output is estimated from
// its byte length while it streams, so the meter never tokenizes on the
// streaming hot path, and counted exactly at the end of the turn (Settle).
// A Meter is not safe for concurrent use; the pipeline guards it.
type Meter struct {
	size      int64 // configured window
	estimate  int64 // bridge's own count
	reported  Usage // last usage_update from the agent
	hasReport bool

	// Streamed text counted by its bytes since the last settlement, and
	// what those bytes added to estimate; Settle swaps that guess for the
	// text's o200k count. gen changes on Reset, so a settlement computed
	// before a reset is not applied after it.
	pending    strings.Builder
	pendingEst int64
	gen        int
}

// NewMeter returns a meter for a window of size tokens.
func NewMeter(size int64) *Meter { return &Meter{size: size} }

// Add records n tokens entering the agent's context.
func (m *Meter) Add(n int) { m.estimate += int64(n) }

// AddText records streamed text entering the agent's context. It is counted
// at four bytes per token at once, so the level follows the stream without
// tokenizing on the hot path, and kept until Settle counts it exactly.
func (m *Meter) AddText(text string) {
	est := int64(estimateFromBytes(len(text)))
	m.estimate += est
	m.pendingEst += est
	m.pending.WriteString(text)
}

// TakePending hands over the text added since the last settlement, with
// the estimate it contributed and the meter's generation, for Settle.
func (m *Meter) TakePending() (text string, est int64, gen int) {
	text, est, gen = m.pending.String(), m.pendingEst, m.gen
	m.pending.Reset()
	m.pendingEst = 0
	return text, est, gen
}

// Settle replaces a byte estimate est with the exact count, unless the
// meter was reset since TakePending returned gen.
func (m *Meter) Settle(est, exact int64, gen int) {
	if gen == m.gen {
		m.estimate += exact - est
	}
}

// Report records the agent's own usage_update figures.
func (m *Meter) Report(used, size int64) {
	m.reported = Usage{Used: used, Size: size}
	m.hasReport = true
}

// Reset replaces the bridge's estimate with n tokens (after a rollover, the
// new session holds only what the bridge sent it) and forgets the agent's
// last report, which described the old session.
func (m *Meter) Reset(n int) {
	m.gen++
	m.pending.Reset()
	m.pendingEst = 0
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
