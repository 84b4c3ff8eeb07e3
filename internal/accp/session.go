package accp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Message is a structured ACCP message: what Encode takes and Decode
// returns. Fields use full key names (section 4.2's abbreviations and a
// schema's short keys are wire details); on decode refs are resolved and
// schema defaults filled.
type Message struct {
	From   string
	Intent string
	Op     string
	// Schema is the schema code ("TC"), or "" for none.
	Schema string
	Fields []Field
	Env    Envelope
	// Stream is set on the message that completes a stream (section 10.4):
	// the data of all chunks, reordered by chunk index.
	Stream *StreamResult
}

// Field returns the value of a field by full name.
func (m *Message) Field(key string) (Value, bool) { return lookup(m.Fields, key) }

// Envelope holds the metadata fields of section 3.5. CID and AID are
// values because a correlation id may be a number (a JSON-RPC id); a null
// (zero) Value means absent.
type Envelope struct {
	MID string
	Seq int64
	TS  int64
	CID Value
	AID Value
	SID string
	TTL int64
	// Extra holds metadata fields outside the envelope, in wire order.
	Extra []Field
}

// StreamResult is a completed stream.
type StreamResult struct {
	Data   string
	Chunks int
}

// Options configure a Session. The zero value gives the behaviour the draft
// asks for.
type Options struct {
	// Registry is the registry shared by the session; optional, if nil a
	// fresh NewRegistry.
	Registry *Registry
	// Store holds warm, cold and context state; optional, if nil the
	// session gets a private store. Sessions that exchange $cold refs must
	// share one.
	Store *Store
	// Limits bound the parser; optional, zero means the defaults.
	Limits Limits
	// Clock returns the current time; optional, if nil time.Now.
	Clock func() time.Time
	// Logger receives debug renderings of decoded frames (section 9,
	// item 1); optional, nil discards.
	Logger *slog.Logger
	// NewMID returns a fresh 12-hex-digit msg id; optional, if nil a random
	// one (crypto/rand).
	NewMID func(seq int64) string
	// Inline keeps string values longer than 50 characters in the frame
	// instead of moving them to cold state (section 3.3, rule 4).
	Inline bool
	// Budget says what Encode does with a frame over the token limits of
	// section 3.4; the zero value splits it.
	Budget Budget
	// Checkpoints says how much of section 5's checkpointing the session
	// does; the zero value keeps hot state and checkpoints automatically.
	Checkpoints Checkpoints
	// LenientEnvelope accepts the draft's own example envelopes: any mid
	// string and a missing ts. mid and seq stay required.
	LenientEnvelope bool
	// AllowUnknownOps accepts operations that are not registered.
	AllowUnknownOps bool
}

// Session is one ACCP session: the encoder's sequence counter, the
// decoder's delivery state (section 3.7), the hot state and the
// reconstructed key/value state of section 5.4. A Session is safe for
// concurrent use.
type Session struct {
	id    string
	opt   Options
	reg   *Registry
	store *Store
	log   *slog.Logger

	mu        sync.Mutex // guards everything below
	seq       int64      // last seq encoded
	lastSeq   int64      // last seq accepted by the decoder
	seen      map[string]bool
	cancelled map[string]bool
	streams   map[string]*assembly
	hot       []hotFrame
	hotTokens int
	hotRef    string
	ckpts     int
	warmLast  int // tokens of the last checkpoint's warm entry
	lastFrame FrameTokens
	lastLine  string           // the last frame encoded, when lastFrame is not counted yet
	state     map[string]Value // current state (5.4)
	baseline  map[string]Value // state at the last checkpoint or delta
	stateV    int64
	extern    int
}

type hotFrame struct {
	line   string
	msg    *Message
	tokens int // -1 until counted
}

// NewSession returns a session with the given id (used as the envelope's
// sid and to scope state) and options.
func NewSession(id string, opt Options) *Session {
	s := &Session{id: id, opt: opt, reg: opt.Registry, store: opt.Store, log: opt.Logger,
		seen: map[string]bool{}, cancelled: map[string]bool{}, streams: map[string]*assembly{},
		state: map[string]Value{}, baseline: map[string]Value{}}
	if s.reg == nil {
		s.reg = NewRegistry()
	}
	if s.store == nil {
		s.store = NewStore()
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.opt.Clock == nil {
		s.opt.Clock = time.Now
	}
	return s
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Registry returns the session's registry.
func (s *Session) Registry() *Registry { return s.reg }

// RegisterSchema registers a custom schema in the session's registry.
func (s *Session) RegisterSchema(name string, sc Schema) error { return s.reg.RegisterSchema(name, sc) }

// Put stores v in the session's tier under key (ttl 0: no expiry); it is
// then reachable as $tier.key.
func (s *Session) Put(tier Tier, key string, v Value, ttl time.Duration) {
	s.store.Put(s.id, tier, key, v, ttl, s.opt.Clock())
}

// Get returns the session's value under key in tier (E2001, E2002).
func (s *Session) Get(tier Tier, key string) (Value, error) {
	return s.store.Get(s.id, tier, key, s.opt.Clock())
}

// PutWarm stores v in warm state.
func (s *Session) PutWarm(key string, v Value) { s.Put(Warm, key, v, 0) }

// GetWarm returns a warm state value.
func (s *Session) GetWarm(key string) (Value, error) { return s.Get(Warm, key) }

// Resolve resolves a ref such as "$warm.ckpt_1.summary" or "warm.ckpt_1".
func (s *Session) Resolve(ref string) (Value, error) {
	v, ok, err := s.store.Resolve(s.id, strings.TrimPrefix(ref, "$"), s.opt.Clock())
	if err == nil && !ok {
		return Value{}, errorf(CodeRefNotFound, -1, "%s is not a state reference", ref)
	}
	return v, err
}

func (s *Session) newMID(seq int64) string {
	if s.opt.NewMID != nil {
		return s.opt.NewMID(seq)
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		h := sha256.Sum256([]byte(fmt.Sprint(s.id, seq, time.Now().UnixNano())))
		copy(b[:], h[:])
	}
	return decimalMID(b[:])
}

// decimalMID turns random bytes into a msg id of 12 hex digits drawn from
// 0-9 only, the first not 0. Such an id is valid hex (section 3.5) and
// costs 4 o200k tokens where one with letters costs about 9; on the wire it
// reads as an integer, which the decoder accepts for mid.
func decimalMID(b []byte) string {
	var n uint64
	for _, c := range b[:8] {
		n = n<<8 | uint64(c)
	}
	return strconv.FormatUint(100000000000+n%900000000000, 10)
}

// DeterministicMID derives msg ids from the session id and seq (SHA-256),
// for reproducible output; use it as Options.NewMID.
func DeterministicMID(session string) func(int64) string {
	return func(seq int64) string {
		h := sha256.Sum256([]byte(session + "\x00" + strconv.FormatInt(seq, 10)))
		return decimalMID(h[:8])
	}
}

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

// Decode runs the decoding pipeline of section 7.3 on one frame, with the
// delivery checks of 3.7. It returns (nil, nil) for frames dropped
// silently: expired TTL, a cancelled correlation id, or a chunk of a frame
// sequence that is not complete yet.
func (s *Session) Decode(line string) (*Message, error) {
	f, err := s.opt.Limits.Parse(line, s.reg)
	if err != nil {
		return nil, err
	}
	return s.DecodeFrame(f)
}

// DecodeFrame is Decode for an already parsed frame.
func (s *Session) DecodeFrame(f *Frame) (*Message, error) {
	env, err := s.envelope(f)
	if err != nil {
		return nil, err
	}
	now := s.opt.Clock()
	s.mu.Lock()
	defer s.mu.Unlock()
	drop, err := s.deliverLocked(f, env, now)
	if drop || err != nil {
		return nil, err
	}
	cidKey := ""
	if env.CID.Kind != KindNull {
		cidKey = string(AppendValue(nil, env.CID))
	}
	m, err := s.expand(f, env, now)
	if err != nil {
		return nil, err
	}
	if m.Schema == "ST" {
		done, err := s.addChunk(cidKey, m)
		if err != nil {
			return nil, err
		}
		if f.Op == "frame" {
			if done == nil {
				return nil, nil
			}
			inner, err := s.opt.Limits.Parse(done.Data, s.reg)
			if err != nil {
				return nil, err
			}
			m, err = s.expand(inner, env, now)
			if err != nil {
				return nil, err
			}
		} else {
			m.Stream = done
		}
	}
	if f.Intent == "end" && cidKey != "" && m.Schema != "ST" {
		done, err := s.endStream(cidKey)
		if err != nil {
			return nil, err
		}
		m.Stream = done
	}
	if f.Intent == "sync" {
		if err := s.applySync(f); err != nil {
			return nil, err
		}
	}
	line := string(AppendFrame(nil, f))
	s.addHot(line, m)
	if s.log.Enabled(context.Background(), slog.LevelDebug) {
		s.log.Debug("accp: decoded frame", "text", Render(f, s.reg))
	}
	if s.opt.Checkpoints == CheckpointAuto && s.triggersLocked(m.Intent) {
		s.checkpointLocked()
	}
	return m, nil
}

// deliverLocked applies the delivery rules of section 3.7 to a frame: it
// reports drop for expired frames and frames of a cancelled chain, rejects
// duplicates (E3002) and sequence gaps (E3003), and records cancel intents.
func (s *Session) deliverLocked(f *Frame, env Envelope, now time.Time) (drop bool, err error) {
	if !s.opt.AllowUnknownOps && !s.reg.HasOperation(f.Op) {
		return false, errorf(CodeInvalidIntent, -1, "unknown operation %q", f.Op)
	}
	if s.seen[env.MID] {
		return false, errorf(CodeDuplicate, -1, "msg id %s already seen in session %s", env.MID, s.id)
	}
	if s.lastSeq != 0 && env.Seq != s.lastSeq+1 {
		if env.Seq <= s.lastSeq {
			return false, errorf(CodeSequenceGap, -1, "seq %d after %d is out of order", env.Seq, s.lastSeq)
		}
		return false, errorf(CodeSequenceGap, -1, "seq %d after %d: %d frame(s) missing", env.Seq, s.lastSeq, env.Seq-s.lastSeq-1)
	}
	s.seen[strings.Clone(env.MID)] = true // not the line it is part of
	s.lastSeq = env.Seq
	// Dropped frames still take their place in the sequence.
	if env.TTL > 0 && env.TS > 0 && now.Unix() > env.TS+env.TTL {
		s.log.Debug("accp: dropped expired frame", "mid", env.MID)
		return true, nil
	}
	cidKey := ""
	if env.CID.Kind != KindNull {
		cidKey = string(AppendValue(nil, env.CID))
	}
	if cidKey != "" && s.cancelled[cidKey] && f.Intent != "cancel" {
		return true, nil
	}
	if f.Intent == "cancel" && cidKey != "" {
		s.cancelled[cidKey] = true
		delete(s.streams, cidKey)
	}
	return false, nil
}

// Receive parses a frame and applies the envelope and delivery checks of
// sections 3.5 and 3.7 without expanding it: for layers (such as the ACP
// mapping) that read frames with their own keys. It returns (nil, env, nil)
// for a frame dropped silently.
func (s *Session) Receive(line string) (*Frame, Envelope, error) {
	f, err := s.opt.Limits.Parse(line, s.reg)
	if err != nil {
		return nil, Envelope{}, err
	}
	env, drop, err := s.ReceiveFrame(f, line)
	if drop || err != nil {
		return nil, env, err
	}
	return f, env, nil
}

// ReceiveFrame is Receive for a frame already parsed from line (with the
// session's Limits and Registry). drop reports a frame the delivery rules
// drop silently: it was accepted in the sequence but must not be acted on.
func (s *Session) ReceiveFrame(f *Frame, line string) (env Envelope, drop bool, err error) {
	env, err = s.envelope(f)
	if err != nil {
		return env, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	drop, err = s.deliverLocked(f, env, s.opt.Clock())
	if drop || err != nil {
		return env, drop, err
	}
	s.addHot(line, nil)
	return env, false, nil
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

func isHex12(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isDigit(c) || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (s *Session) envelope(f *Frame) (Envelope, error) {
	var env Envelope
	intField := func(key string, dst *int64, required bool) error {
		v, ok := f.MetaValue(key)
		if !ok {
			if required {
				return errorf(CodeParse, -1, "metadata lacks required envelope field %s", key)
			}
			return nil
		}
		if v.Kind != KindInt {
			return errorf(CodeInvalidType, -1, "envelope field %s must be an integer, got %s", key, v.Kind)
		}
		n, err := strconv.ParseInt(v.Str, 10, 64)
		if err != nil {
			return errorf(CodeInvalidType, -1, "envelope field %s: %v", key, err)
		}
		*dst = n
		return nil
	}
	mid, ok := f.MetaValue("mid")
	if !ok {
		return env, errorf(CodeParse, -1, "metadata lacks required envelope field mid")
	}
	switch mid.Kind {
	case KindString, KindInt:
		env.MID = mid.Str
	default:
		return env, errorf(CodeInvalidType, -1, "envelope field mid must be a string, got %s", mid.Kind)
	}
	if !s.opt.LenientEnvelope && !isHex12(env.MID) {
		return env, errorf(CodeInvalidType, -1, "envelope field mid %q is not 12 lower-case hex digits", env.MID)
	}
	if err := intField("seq", &env.Seq, true); err != nil {
		return env, err
	}
	if err := intField("ts", &env.TS, !s.opt.LenientEnvelope); err != nil {
		return env, err
	}
	if err := intField("ttl", &env.TTL, false); err != nil {
		return env, err
	}
	for _, m := range f.Meta {
		switch m.Key {
		case "mid", "seq", "ts", "ttl":
		case "cid":
			env.CID = m.Val
		case "aid":
			env.AID = m.Val
		case "sid":
			if m.Val.Kind != KindString && m.Val.Kind != KindInt {
				return env, errorf(CodeInvalidType, -1, "envelope field sid must be a string, got %s", m.Val.Kind)
			}
			env.SID = m.Val.Str
		default:
			env.Extra = append(env.Extra, m)
		}
	}
	return env, nil
}

// expand resolves refs, expands keys and fills schema defaults (7.3 steps
// 2-5).
func (s *Session) expand(f *Frame, env Envelope, now time.Time) (*Message, error) {
	m := &Message{From: f.Agent, Intent: f.Intent, Op: f.Op, Env: env, Fields: make([]Field, 0, len(f.Params)+2)}
	var sc *Schema
	if v, ok := f.Param("schema"); ok {
		if v.Kind != KindString {
			return nil, errorf(CodeInvalidType, -1, "schema must be a code, got %s", v.Kind)
		}
		if sc, ok = s.reg.Schema(v.Str); !ok {
			return nil, errorf(CodeUnknownSchema, -1, "unknown schema %q", v.Str)
		}
		m.Schema = sc.Code
	}
	for _, p := range f.Params {
		if p.Key == "schema" && sc != nil {
			continue
		}
		key := ""
		if sc != nil {
			if full, ok := sc.expand(p.Key); ok {
				key = full
			}
		}
		if key == "" {
			key = s.reg.expandKey(p.Key)
		}
		v, err := s.resolve(p.Val, now)
		if err != nil {
			return nil, err
		}
		if sc != nil && slices.Contains(sc.Numeric, key) && v.Kind != KindInt && v.Kind != KindDecimal {
			return nil, errorf(CodeInvalidType, -1, "schema %s field %s must be a number, got %s", sc.Code, key, v.Kind)
		}
		if _, dup := lookup(m.Fields, key); dup {
			return nil, errorf(CodeParse, -1, "keys %q expand to the same field %q", p.Key, key)
		}
		m.Fields = append(m.Fields, Field{key, v})
	}
	if sc != nil {
		for _, name := range slices.Sorted(maps.Keys(sc.Defaults)) {
			if _, ok := lookup(m.Fields, name); !ok {
				m.Fields = append(m.Fields, Field{name, sc.Defaults[name]})
			}
		}
	}
	return m, nil
}

func (s *Session) resolve(v Value, now time.Time) (Value, error) {
	switch v.Kind {
	case KindRef:
		r, ok, err := s.store.Resolve(s.id, v.Str, now)
		if err != nil {
			return Value{}, err
		}
		if ok {
			return r, nil
		}
	case KindArray:
		var out *Value
		for i, e := range v.List {
			r, err := s.resolve(e, now)
			if err != nil {
				return Value{}, err
			}
			if out == nil && !r.Equal(e) {
				out = &Value{Kind: KindArray, List: slices.Clone(v.List)}
			}
			if out != nil {
				out.List[i] = r
			}
		}
		if out != nil {
			return *out, nil
		}
	case KindMap, KindPair:
		var out *Value
		for i, e := range v.Fields {
			r, err := s.resolve(e.Val, now)
			if err != nil {
				return Value{}, err
			}
			if out == nil && !r.Equal(e.Val) {
				out = &Value{Kind: v.Kind, Fields: slices.Clone(v.Fields)}
			}
			if out != nil {
				out.Fields[i].Val = r
			}
		}
		if out != nil {
			return *out, nil
		}
	}
	return v, nil
}

func (s *Session) addHot(line string, m *Message) {
	if s.opt.Checkpoints == CheckpointNone {
		return
	}
	s.hot = append(s.hot, hotFrame{line, m, -1})
	if s.opt.Checkpoints == CheckpointAuto {
		s.countHotLocked()
	}
}

// countHotLocked counts the tokens of hot frames not counted yet; counting
// is deferred when no automatic checkpoint needs it.
func (s *Session) countHotLocked() {
	for i := range s.hot {
		if s.hot[i].tokens < 0 {
			s.hot[i].tokens = CountTokens(s.hot[i].line)
			s.hotTokens += s.hot[i].tokens
		}
	}
}

// triggersLocked reports whether a checkpoint is due (section 5.2): a done,
// esc or comp intent, or hot state over 400 tokens.
func (s *Session) triggersLocked(intent string) bool {
	switch intent {
	case "done", "esc", "comp":
		return true
	}
	return s.hotTokens > HotCheckpointTokens
}
