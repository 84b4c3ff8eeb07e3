package accp

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"log/slog"
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
