package accp

import (
	"math"
	"slices"
	"strconv"
)

// Encode runs the encoding pipeline of section 7.2 on m and returns the
// frame, or a frame sequence when it had to be split to fit the budget.
// Envelope fields left zero are filled: mid, the next seq, ts now, sid the
// session id.
func (s *Session) Encode(m Message) ([]string, error) {
	f, err := s.compact(m)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	seq := m.Env.Seq
	if seq == 0 {
		seq = s.seq + 1
	}
	s.seq = seq
	env := m.Env
	env.Seq = seq
	if env.MID == "" {
		env.MID = s.newMID(seq)
	}
	if env.TS == 0 {
		env.TS = s.opt.Clock().Unix()
	}
	if env.SID == "" {
		env.SID = s.id
	}
	f.Meta = env.fields()
	line := string(AppendFrame(nil, f))
	var lines []string
	if s.opt.Budget == BudgetIgnore {
		lines = []string{line}
	} else {
		lines, err = s.fitBudget(f, line)
		if err != nil {
			return nil, err
		}
	}
	for _, l := range lines {
		s.addHot(l, &m)
	}
	if s.opt.Checkpoints == CheckpointAuto && s.triggersLocked(m.Intent) {
		s.checkpointLocked()
	}
	return lines, nil
}

// EncodeFrame is Encode for callers that need exactly one frame: it fails
// with E2003 instead of splitting.
func (s *Session) EncodeFrame(m Message) (string, error) {
	lines, err := s.Encode(m)
	if err != nil {
		return "", err
	}
	if len(lines) != 1 {
		return "", errorf(CodeBudgetExceeded, -1, "message needs %d frames", len(lines))
	}
	return lines[0], nil
}

// compact applies schema resolution, key abbreviation, default omission and
// type checks (7.2 steps 1, 2, 4) and returns the frame without envelope.
func (s *Session) compact(m Message) (*Frame, error) {
	if !s.reg.HasIntent(m.Intent) {
		return nil, errorf(CodeInvalidIntent, -1, "unknown intent %q", m.Intent)
	}
	if !s.opt.AllowUnknownOps && !s.reg.HasOperation(m.Op) {
		return nil, errorf(CodeInvalidIntent, -1, "unknown operation %q", m.Op)
	}
	var sc *Schema
	if m.Schema != "" {
		var ok bool
		if sc, ok = s.reg.Schema(m.Schema); !ok {
			return nil, errorf(CodeUnknownSchema, -1, "unknown schema %q", m.Schema)
		}
	}
	f := &Frame{Agent: m.From, Intent: m.Intent, Op: m.Op, Params: make([]Field, 0, len(m.Fields)+1)}
	for _, fl := range m.Fields {
		key := s.reg.abbrevKey(fl.Key)
		if sc != nil && slices.Contains(sc.Fields, fl.Key) {
			if d, ok := sc.Defaults[fl.Key]; ok && d.Equal(fl.Val) {
				continue
			}
			if slices.Contains(sc.Numeric, fl.Key) && fl.Val.Kind != KindInt && fl.Val.Kind != KindDecimal {
				return nil, errorf(CodeInvalidType, -1, "schema %s field %s must be a number, got %s", sc.Code, fl.Key, fl.Val.Kind)
			}
			key = sc.abbrev(fl.Key)
		}
		f.Params = append(f.Params, Field{key, fl.Val})
	}
	if sc != nil {
		f.Params = append(f.Params, Field{"schema", String(sc.Code)})
	}
	if err := f.validate(); err != nil {
		return nil, err
	}
	return f, nil
}

func (e Envelope) fields() []Field {
	out := make([]Field, 0, 7+len(e.Extra))
	mid := String(e.MID)
	if numberClass(e.MID) == numInt {
		mid = Value{Kind: KindInt, Str: e.MID}
	}
	out = append(out, Field{"mid", mid}, Field{"seq", Int(e.Seq)}, Field{"ts", Int(e.TS)})
	if e.CID.Kind != KindNull {
		out = append(out, Field{"cid", e.CID})
	}
	if e.AID.Kind != KindNull {
		out = append(out, Field{"aid", e.AID})
	}
	if e.SID != "" {
		out = append(out, Field{"sid", String(e.SID)})
	}
	if e.TTL != 0 {
		out = append(out, Field{"ttl", Int(e.TTL)})
	}
	return append(out, e.Extra...)
}

// fitBudget enforces the hard limits of 3.4 (7.2 step 6): first moving
// long strings to cold state, then splitting into a frame sequence.
func (s *Session) fitBudget(f *Frame, line string) ([]string, error) {
	// A token is at least one byte: components no longer in bytes than
	// their hard limit in tokens cannot exceed it, and need no counting.
	if h, b, m := splitComponents(line); len(h) <= HeaderHardTokens && len(b) <= BodyHardTokens && len(m) <= MetaHardTokens && len(line) <= FrameHardTokens {
		s.lastLine, s.lastFrame = line, FrameTokens{}
		return []string{line}, nil
	}
	ft := MeasureFrame(line)
	if ft.Exceeds() && !s.opt.Inline {
		for i := range f.Params {
			f.Params[i].Val = s.externalize(f.Params[i].Val)
		}
		line = string(AppendFrame(nil, f))
		ft = MeasureFrame(line)
	}
	s.lastFrame = ft
	if !ft.Exceeds() {
		return []string{line}, nil
	}
	if s.opt.Budget == BudgetReject {
		return nil, errorf(CodeBudgetExceeded, -1, "frame of %d tokens exceeds the hard limit of %d", ft.Total, FrameHardTokens)
	}
	return s.split(f), nil
}

// externalize moves strings over 50 characters to cold state (3.3 rule 4).
func (s *Session) externalize(v Value) Value {
	switch v.Kind {
	case KindString:
		if len([]rune(v.Str)) > ExternalizeValueLength {
			s.extern++
			key := "x" + strconv.FormatInt(s.seq, 10) + "_" + strconv.Itoa(s.extern)
			s.store.Put(s.id, Cold, key, v, 0, s.opt.Clock())
			return Ref("cold." + key)
		}
	case KindArray:
		out := Value{Kind: KindArray, List: make([]Value, len(v.List))}
		for i, e := range v.List {
			out.List[i] = s.externalize(e)
		}
		return out
	case KindMap, KindPair:
		out := Value{Kind: v.Kind, Fields: make([]Field, len(v.Fields))}
		for i, e := range v.Fields {
			out.Fields[i] = Field{e.Key, s.externalize(e.Val)}
		}
		return out
	}
	return v
}

// split turns an over-budget frame into an ST-schema frame sequence
// "stream:frame{idx|tot|d|done}" sharing one cid; each chunk carries a
// piece of the frame's text without metadata. The decoder reassembles it.
func (s *Session) split(f *Frame) []string {
	inner := string(AppendFrame(nil, &Frame{Agent: f.Agent, Intent: f.Intent, Op: f.Op, Params: f.Params}))
	env := f.Meta
	cid := String("split" + strconv.FormatInt(s.seq, 10))
	// Pieces of at most ~120 bytes keep a chunk frame well under the body
	// limit even when every byte becomes a token.
	const piece = 120
	var parts []string
	for len(inner) > 0 {
		n := min(piece, len(inner))
		for n < len(inner) && n > 0 && inner[n]&0xC0 == 0x80 {
			n--
		}
		parts = append(parts, inner[:n])
		inner = inner[n:]
	}
	lines := make([]string, len(parts))
	for i, p := range parts {
		seq := s.seq
		if i > 0 {
			s.seq++
			seq = s.seq
		}
		ch := &Frame{Agent: f.Agent, Intent: "stream", Op: "frame", Params: []Field{
			{"idx", Int(int64(i))}, {"tot", Int(int64(len(parts)))}, {"d", String(p)},
		}}
		if i == len(parts)-1 {
			ch.Params = append(ch.Params, Field{"done", Bool(true)})
		}
		ch.Params = append(ch.Params, Field{"schema", String("ST")})
		meta := slices.Clone(env)
		meta = set(meta, "seq", Int(seq))
		if i > 0 {
			meta = set(meta, "mid", String(s.newMID(seq)))
		}
		meta = set(meta, "cid", cid)
		ch.Meta = meta
		lines[i] = string(AppendFrame(nil, ch))
	}
	return lines
}

// Seal gives a frame built by the caller its envelope (mid, the next seq,
// ts now unless env sets them; cid, aid, sid and ttl as env has them) and
// returns its text. Unlike Encode it applies no abbreviation, schema or
// budget step, and does not add the session id as sid.
func (s *Session) Seal(f *Frame, env Envelope) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if env.Seq == 0 {
		env.Seq = s.seq + 1
	}
	s.seq = env.Seq
	if env.MID == "" {
		env.MID = s.newMID(env.Seq)
	}
	if env.TS == 0 {
		env.TS = s.opt.Clock().Unix()
	}
	g := *f
	g.Meta = env.fields()
	if err := g.validate(); err != nil {
		return "", err
	}
	line := string(AppendFrame(make([]byte, 0, 256), &g))
	s.addHot(line, nil)
	return line, nil
}

// Check reports the error a parser with the session's Limits would give
// the frame Seal makes of f and env (E1001 for nesting, values or length
// over them), counting the envelope fields Seal fills in at their widest.
// It does not change the session.
func (s *Session) Check(f *Frame, env Envelope) error {
	if env.MID == "" {
		env.MID = "ffffffffffff"
	}
	if env.Seq == 0 {
		env.Seq = math.MaxInt64
	}
	if env.TS == 0 {
		env.TS = math.MaxInt64
	}
	g := *f
	g.Meta = env.fields()
	return s.opt.Limits.Check(&g)
}
