package accp

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Fact is one extracted key fact (section 5.3 step 2): an entity, a
// relationship and a value.
type Fact struct {
	Entity, Relation, Value string
}

// CheckpointResult reports one checkpoint (section 5.3).
type CheckpointResult struct {
	// ID is the checkpoint id, "ckpt_N"; the summary is at $warm.ckpt_N
	// and the raw frames at $cold.ckpt_N.
	ID string
	// N is the checkpoint number, also the state version it fixes.
	N int
	// Frames is how many hot frames were frozen.
	Frames int
	Facts  []Fact
	// Summary is at most 100 o200k tokens.
	Summary       string
	SummaryTokens int
	// WarmTokens is the size of the warm entry; at most 200 (5.1).
	WarmTokens int
}

// Checkpoint runs the checkpoint process of section 5.3: it freezes the hot
// state, extracts key facts, writes a summary of at most 100 tokens to warm
// state under the checkpoint id, moves the raw frames and the state snapshot
// to cold state, and resets hot state to a reference to the checkpoint.
func (s *Session) Checkpoint() CheckpointResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.checkpointLocked()
}

func (s *Session) checkpointLocked() CheckpointResult {
	s.countHotLocked()
	s.ckpts++
	id := "ckpt_" + strconv.Itoa(s.ckpts)
	res := CheckpointResult{ID: id, N: s.ckpts, Frames: len(s.hot)}
	raw := make([]Value, len(s.hot))
	for i, h := range s.hot {
		raw[i] = String(h.line)
		if h.msg != nil {
			res.Facts = append(res.Facts, facts(h.msg)...)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.state)) {
		res.Facts = append(res.Facts, Fact{"state", k, short(s.state[k])})
	}
	// Summary: the checkpoint line, then facts while they fit.
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d_frames", id, len(s.hot))
	if s.hotRef != "" {
		fmt.Fprintf(&b, ",after_%s", s.hotRef)
	}
	for _, f := range res.Facts {
		next := b.String() + ";" + f.Entity + "." + f.Relation + "=" + f.Value
		if CountTokens(next) > SummaryMaxTokens {
			break
		}
		b.Reset()
		b.WriteString(next)
	}
	res.Summary = b.String()
	res.SummaryTokens = CountTokens(res.Summary)
	warm := Map(Field{"summary", String(res.Summary)}, Field{"v", Int(int64(s.stateV))})
	res.WarmTokens = CountTokens(string(AppendValue(nil, warm)))
	now := s.opt.Clock()
	s.store.Put(s.id, Warm, id, warm, 0, now)
	factVals := make([]Value, len(res.Facts))
	for i, f := range res.Facts {
		factVals[i] = Array(String(f.Entity), String(f.Relation), String(f.Value))
	}
	s.store.Put(s.id, Cold, id, Map(
		Field{"frames", Array(raw...)},
		Field{"facts", Array(factVals...)},
		Field{"state", stateMap(s.state)},
	), 0, now)
	s.warmLast = res.WarmTokens
	s.hot = s.hot[:0]
	s.hotRef = "$warm." + id
	s.hotTokens = CountTokens(s.hotRef)
	s.baseline = maps.Clone(s.state)
	return res
}

func stateMap(st map[string]Value) Value {
	fields := make([]Field, 0, len(st))
	for k, v := range st {
		fields = append(fields, Field{k, v})
	}
	return Map(fields...)
}

// facts extracts (agent, op.key, value) triples from a message's scalar
// fields; containers are summarised by size.
func facts(m *Message) []Fact {
	var out []Fact
	for _, f := range m.Fields {
		out = append(out, Fact{m.From, m.Intent + ":" + m.Op + "." + f.Key, short(f.Val)})
	}
	return out
}

func short(v Value) string {
	var s string
	switch v.Kind {
	case KindArray:
		s = fmt.Sprintf("[%d]", len(v.List))
	case KindMap:
		s = fmt.Sprintf("{%d}", len(v.Fields))
	default:
		s = string(AppendValue(nil, v))
	}
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return s
}

// TokenBudget reports token use against the budgets of sections 3.4 and
// 5.1, counted with o200k_base.
type TokenBudget struct {
	HotUsed, HotMax   int
	WarmLast, WarmMax int // tokens of the last checkpoint's warm entry
	Checkpoints       int
	HotFrames         int
	// LastFrame is the size of the last frame encoded.
	LastFrame FrameTokens
}

// GetBudget returns the session's current token budget use (section 7.1).
func (s *Session) GetBudget() TokenBudget {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.countHotLocked()
	if s.lastLine != "" {
		s.lastFrame, s.lastLine = MeasureFrame(s.lastLine), ""
	}
	return TokenBudget{HotUsed: s.hotTokens, HotMax: HotBudgetTokens, WarmLast: s.warmLast,
		WarmMax: WarmCheckpointTokens, Checkpoints: s.ckpts, HotFrames: len(s.hot), LastFrame: s.lastFrame}
}

// SetState sets a key of the session's key/value state (section 5.4).
func (s *Session) SetState(key string, v Value) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state[key] = v
}

// DeleteState removes a key of the session's state.
func (s *Session) DeleteState(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.state, key)
}

// State returns a copy of the session's state: what the encoder has set, or
// on the decoding side what the received deltas reconstruct.
func (s *Session) State() map[string]Value {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.state)
}

// StateVersion returns the version of the state (the v of the last delta).
func (s *Session) StateVersion() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stateV
}

// StateDelta returns the delta message of section 5.4,
// "sync:state{v:N+1|delta:{changed:new,removed:~}}", holding only what
// changed since the last checkpoint or delta, and advances the baseline.
// It returns nil when nothing changed.
func (s *Session) StateDelta(from string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var delta []Field
	for k, v := range s.state {
		if old, ok := s.baseline[k]; !ok || !old.Equal(v) {
			delta = append(delta, Field{k, v})
		}
	}
	for k := range s.baseline {
		if _, ok := s.state[k]; !ok {
			delta = append(delta, Field{k, Null()})
		}
	}
	if len(delta) == 0 {
		return nil
	}
	s.stateV++
	s.baseline = maps.Clone(s.state)
	return &Message{From: from, Intent: "sync", Op: "state", Fields: []Field{
		{"version", Int(s.stateV)}, {"delta", Map(delta...)},
	}}
}

// applySync applies a received sync frame: a state delta (5.4) or a
// registry delta (6.4).
func (s *Session) applySync(f *Frame) error {
	switch f.Op {
	case "state":
		v, _ := f.Param("v")
		d, ok := f.Param("delta")
		if !ok {
			return nil
		}
		if v.Kind != KindInt || d.Kind != KindMap {
			return errorf(CodeInvalidType, -1, "sync:state needs an integer v and a map delta")
		}
		n, _ := strconv.ParseInt(v.Str, 10, 64)
		if n != s.stateV+1 {
			return errorf(CodeSequenceGap, -1, "state delta v:%d does not follow v:%d", n, s.stateV)
		}
		for _, e := range d.Fields {
			if e.Val.Kind == KindNull {
				delete(s.state, e.Key)
			} else {
				s.state[e.Key] = e.Val
			}
		}
		s.stateV = n
		s.baseline = maps.Clone(s.state)
	case "registry":
		if _, ok := f.Param("schemas"); ok {
			if _, err := s.reg.HandleSync(f.Agent, f); err != nil {
				return err
			}
		}
	}
	return nil
}
