package acpwire

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"
)

// DefaultInitializeTimeout is how long the bridge waits for the agent to
// answer the IDE's initialize before answering it with an error itself.
const DefaultInitializeTimeout = 60 * time.Second

var errPeerGone = errors.New("peer is gone")

// Options configures a Bridge. The zero value is usable.
type Options struct {
	// MaxLineSize is the largest message accepted from either peer, in
	// bytes; optional, defaults to DefaultMaxLineSize.
	MaxLineSize int
	// InitializeTimeout bounds the wait for the agent's initialize
	// response; optional, defaults to DefaultInitializeTimeout; negative
	// disables it.
	InitializeTimeout time.Duration
	// Record, if set, receives every message the bridge writes to either
	// peer as a JSONL transcript line, and every message a peer sent that
	// the bridge did not pass on with its own bytes, marked with a "bridge"
	// member saying what became of it. Lines that are not JSON or are over
	// the size limit are never messages and are only logged.
	Record io.Writer
	// Logger receives diagnostics; optional, nil discards them.
	Logger *slog.Logger
	// StrictMethods lists the methods whose requests and notifications
	// are decoded strictly before any middleware sees them: a message that
	// repeats a member name at any depth, has two names equal under case
	// folding in one object, has a name that differs only in case from a
	// field the bridge reads, or holds invalid UTF-8 or an unpaired
	// surrogate escape, is refused. Optional: nil means
	// DefaultStrictMethods(), an empty list none.
	StrictMethods []string
	// StrictResponses lists the methods whose responses are decoded
	// strictly, as StrictMethods; optional, nil means
	// DefaultStrictResponses().
	StrictResponses []string
	// OnRefused, if set, hears of every message the bridge refuses before
	// middleware sees it: lines that are not JSON, or not JSON-RPC every
	// peer reads alike, batches, strict messages that fail their check,
	// cancellations of and answers to requests the peer never saw. It is
	// called on the refused message's direction's forwarding goroutine,
	// in turn, so it must not block for long.
	OnRefused func(Refusal)
	// OnAnswered, if set, hears of every request of the client's that the
	// bridge answers in the agent's place, whoever answers it (a
	// middleware through Reply or ReplyError, or the bridge itself), with
	// the response as it is written. Middleware outside the one that
	// answered never sees that response pass on its way to the client, so
	// what it keeps about the request (a session a session/load named, a
	// turn a session/prompt started) would outlive the request the client
	// reads as ended. It is called before the response is written, where
	// the answer is given; it must not block for long, and must not keep
	// req or resp.
	OnAnswered func(req *Message, resp []byte)
	// OnPanic, if set, hears of every panic recovered in a middleware
	// (see Bridge.Use), after it has been logged with its stack. It is
	// called where the middleware ran and must not block for long.
	OnPanic func(Panic)
}

// Bridge forwards ACP messages between a client (the IDE) and an agent,
// through a chain of middleware. Create one with New, add middleware with
// Use, then call Start (or Run) once. A Bridge is also the Sender its middleware
// speaks through.
type Bridge struct {
	opts   Options
	logger *slog.Logger
	layers []layer
	// retaining is set when some middleware may keep messages' bytes after
	// handling them (see UseNonRetaining).
	retaining bool
	// preempt holds the Preempt methods of the middleware that are
	// Preempters.
	preempt []func(*Message)
	// callID is the start of the ids of the bridge's own requests:
	// "acp-bridge-", this run's random nonce and "-".
	callID string

	chains  [2]Handler // by the Direction of the messages they handle
	writers [2]*writer // indexed by Direction
	rec     *recorder

	// strict says which messages are decoded strictly; strictDec holds a
	// strict decoder for each direction's forwarding.
	strict    strictness
	strictDec [2]strictDecoder

	mu       sync.Mutex              // guards awaiting, calls, nextCall and requestState fields
	awaiting [2]map[string]*awaiting // requests forwarded in a Direction, by id
	calls    map[string]*pendingCall
	nextCall uint64
}

// awaiting is a forwarded request waiting for its response.
type awaiting struct {
	req   *Message
	timer *time.Timer
}

// New returns a Bridge with opts.
func New(opts Options) *Bridge {
	if opts.MaxLineSize <= 0 {
		opts.MaxLineSize = DefaultMaxLineSize
	}
	if opts.InitializeTimeout == 0 {
		opts.InitializeTimeout = DefaultInitializeTimeout
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var n [6]byte
	_, _ = rand.Read(n[:])
	return &Bridge{
		opts:     opts,
		logger:   logger,
		callID:   "acp-bridge-" + hex.EncodeToString(n[:]) + "-",
		strict:   newStrictness(opts.StrictMethods, opts.StrictResponses),
		awaiting: [2]map[string]*awaiting{{}, {}},
		calls:    map[string]*pendingCall{},
	}
}

// Use appends middleware. Middleware nests like an onion: the first given
// is outermost toward the client, so it sees the client's messages first
// and the agent's messages last, and each middleware sees on both sides
// the ids and bytes of the side it is on (a middleware that translates ids
// hides its translation from those added before it). A panic in the
// middleware is recovered, logged and reported, and the message goes on
// unchanged (fail open; see UseFailClosed). Middleware that implements
// Preempter also hears cancellations as they are read. Use must be called
// before Start.
func (b *Bridge) Use(mw ...Wrapper) { b.add(mw, layerOptions{retaining: true}) }

// UseFailClosed appends middleware as Use does, for middleware whose
// checks a message must pass: when it panics, the message it was handling
// is refused instead of passed on (a request is answered with an error, a
// response replaced by an error for the requester, anything else
// dropped), unless the middleware had passed it on already.
func (b *Bridge) UseFailClosed(mw ...Wrapper) {
	b.add(mw, layerOptions{retaining: true, failClosed: true})
}

// UseNonRetaining appends middleware as Use does, for middleware that keeps
// neither a message nor any slice of its bytes once its Handle has returned
// (copies are fine), and that settles each message's fate before Handle
// returns (see Handler); a Preempter added this way keeps nothing of the
// messages its Preempt sees either. While all middleware is added this
// way, the bridge reads each message into a buffer it reuses once the
// message is written, and reuses the Message too. UseNonRetaining must be
// called before Start; tests of such middleware should set PoisonBlocksEnv.
func (b *Bridge) UseNonRetaining(mw ...Wrapper) { b.add(mw, layerOptions{}) }

// UseFailClosedNonRetaining appends middleware that fails closed, as
// UseFailClosed does, and keeps nothing of the messages it handles, as
// UseNonRetaining says.
func (b *Bridge) UseFailClosedNonRetaining(mw ...Wrapper) {
	b.add(mw, layerOptions{failClosed: true})
}

// layerOptions says how middleware was added.
type layerOptions struct {
	// retaining: the middleware may keep messages' bytes after handling
	// them.
	retaining bool
	// failClosed: a panic in the middleware refuses the message.
	failClosed bool
}

// add appends mw as layers added with o, and registers the preempt hooks
// of those that are Preempters.
func (b *Bridge) add(mw []Wrapper, o layerOptions) {
	for _, m := range mw {
		b.layers = append(b.layers, layer{mw: m, failClosed: o.failClosed})
		if p, ok := m.(Preempter); ok {
			b.preempt = append(b.preempt, p.Preempt)
		}
	}
	b.retaining = b.retaining || o.retaining && len(mw) > 0
}

// Endpoint is one side of the bridge: where its messages come from and where
// messages for it go.
type Endpoint struct {
	// In yields the peer's messages.
	In io.Reader
	// Out receives messages for the peer.
	Out io.Writer
}

// Ended reports which side of a Session ended it.
type Ended struct {
	// Side is the peer whose input ended first: ClientToAgent means the
	// client closed its end, AgentToClient the agent's output ended.
	Side Direction
	// Err is the read error, nil for a clean end of stream.
	Err error
}

func (e *Ended) Error() string {
	who := "client"
	if e.Side == AgentToClient {
		who = "agent"
	}
	if e.Err != nil {
		return fmt.Sprintf("%s side ended: %v", who, e.Err)
	}
	return who + " side ended"
}

// Session is a running bridge, started with Start; Run drives one around
// the agent process.
type Session struct {
	b         *Bridge
	closeOnce sync.Once
	ended     chan *Ended
	endOnce   [2]sync.Once     // one Ended per side
	closed    [2]chan struct{} // closed when a direction's loop has finished
	started   time.Time        // when the session started, for the stall clock
	pools     [2]*blockPool    // read blocks by direction, if reused
}

// Start begins forwarding and returns at once.
func (b *Bridge) Start(ctx context.Context, client, agent Endpoint) (*Session, error) {
	return b.start(ctx, client, agent)
}

func (b *Bridge) start(ctx context.Context, client, agent Endpoint) (*Session, error) {
	if b.chains[ClientToAgent] != nil {
		return nil, errors.New("acpwire: bridge already started")
	}
	b.rec = newRecorder(b.opts.Record)
	if f, ok := client.Out.(*os.File); ok {
		// The pipe to the IDE as large as those to the agent: a stream
		// toward the IDE wakes the bridge and the IDE every 1 MiB, not
		// every 64 KiB.
		growPipe(f)
	}
	b.writers[ClientToAgent] = newWriter(ClientToAgent, agent.Out, b.rec, b.logger)
	b.writers[AgentToClient] = newWriter(AgentToClient, client.Out, b.rec, b.logger)
	b.buildChains()
	s := &Session{b: b, ended: make(chan *Ended, 2), closed: [2]chan struct{}{make(chan struct{}), make(chan struct{})}, started: time.Now()}
	go s.run(ctx, ClientToAgent, client.In)
	go s.run(ctx, AgentToClient, agent.In)
	return s, nil
}

// end reports the end of the input of side dir, once.
func (s *Session) end(dir Direction, err error) {
	s.endOnce[dir].Do(func() { s.ended <- &Ended{Side: dir, Err: err} })
}

// Ended returns a channel that yields each side's end, first end first.
func (s *Session) Ended() <-chan *Ended { return s.ended }

// Done returns a channel closed when all messages read in direction dir
// have been handled and written.
func (s *Session) Done(dir Direction) <-chan struct{} { return s.closed[dir] }

// Close flushes what is left to write and the recording. Call it after the
// directions are done. It does not wait for a write that is under way: one
// to a peer that has stopped reading would never end, and it flushes what it
// writes itself.
func (s *Session) Close() {
	s.closeOnce.Do(func() {
		for _, w := range s.b.writers {
			w.flushIfIdle()
		}
		s.b.rec.close()
	})
}
