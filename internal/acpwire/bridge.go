package acpwire

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
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
// returns (see Handler). While all middleware is added this way and no
// middleware is a Preempter, the bridge reads each message into a buffer
// it reuses once the message is written. UseNonRetaining must be called
// before Start; tests of such middleware should set PoisonBlocksEnv.
func (b *Bridge) UseNonRetaining(mw ...Wrapper) { b.add(mw, layerOptions{}) }

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

// run reads one direction's messages and hands them, in order, to a
// forwarding loop, which writes them and flushes whenever it has caught up.
// The reader hands over what it has parsed in batches: each time it is
// about to wait for more input, and every handoffBatch messages.
//
// While no middleware may keep messages (see UseNonRetaining) and no
// preempt hook sees them early, the reader reuses its read blocks: a
// message's block goes back to the pool once the loop has written the
// message with its own bytes. Requests and batches are the exception: the
// bridge keeps them to match their responses (and answer them if the peer
// goes away), so their blocks are left to the garbage collector.
func (s *Session) run(ctx context.Context, dir Direction, in io.Reader) {
	b := s.b
	lr := newLineReader(in, b.opts.MaxLineSize)
	if !b.retaining && len(b.preempt) == 0 {
		s.pools[dir] = newBlockPool()
		lr.reuseBlocks(s.pools[dir])
	}
	// handle dispatches a batch in order; last says nothing waits behind it,
	// so the writer flushes after its last message.
	handle := func(items []queued, last bool) {
		for i, it := range items {
			if it.over != nil {
				b.refuseOversized(dir, it.over)
				if last && i == len(items)-1 {
					// Nothing follows to flush what came before it.
					b.writers[dir].flush()
				}
				continue
			}
			m := it.m
			b.dispatch(ctx, m, last && i == len(items)-1)
			if m.blk != nil && m.fate == fateWritten && m.Kind != KindRequest && m.Kind != KindBatch {
				m.blk.release() // written, and kept by nobody
			}
		}
	}
	queue := make(chan handoff, maxWaiting)
	var pending atomic.Int32 // batches handed to the loop and not yet handled
	waiting := newCredit(load{maxWaiting, maxWaitingBytes})
	go func() {
		defer close(s.closed[dir])
		for h := range queue {
			handle(h.items, len(queue) == 0)
			pending.Add(-1)
			waiting.give(h.load)
		}
		b.writers[dir].flush()
		if p := s.pools[dir]; p != nil {
			b.logger.Debug("read blocks allocated", "from", peerName(dir), "blocks", p.made.Load())
		}
	}()
	// A small lone message read while the loop has nothing to do is
	// dispatched by the reader itself, sparing the hand-off to the loop's
	// thread on the round trip of a request; streams and large messages
	// still go through the loop, so reading goes on while a write waits.
	// Toward the agent only when its pipe is empty and no other write to it
	// is under way: the reader must go on reading the IDE while an agent
	// that is busy does not read, to notice the IDE leaving (and should a
	// middleware's work or its own write wait after all, the watch below
	// notices it). Not with preempt hooks: those exist because a middleware
	// may hold a message, and the reader must go on.
	inline := len(b.preempt) == 0
	// stalledSince is, while the reader of the IDE is kept from reading by
	// the loop or by a message it dispatches itself, when that began (on
	// the monotonic clock, as time since s.started); zero while it reads.
	var stalledSince atomic.Int64
	stall := func() {
		if dir == ClientToAgent {
			stalledSince.Store(int64(time.Since(s.started)) + 1)
		}
	}
	if dir == ClientToAgent {
		readerDone := make(chan struct{})
		defer close(readerDone)
		if probe := hangupProbe(in); probe != nil {
			go s.watchHangup(probe, &stalledSince, readerDone)
		}
	}
	var batch []queued
	handOver := func() {
		switch {
		case len(batch) == 0:
		case inline && len(batch) == 1 && batch[0].m != nil && len(batch[0].m.Raw) <= inlineMax && pending.Load() == 0 &&
			(dir == AgentToClient || b.writers[dir].fits(len(batch[0].m.Raw)+1)):
			stall()
			handle(batch, true)
			stalledSince.Store(0)
			clear(batch) // keep no message alive for the next read
			batch = batch[:0]
		default:
			l := loadOf(batch)
			if !waiting.tryTake(l) {
				stall()
				waiting.take(l)
				stalledSince.Store(0)
			}
			pending.Add(1)
			queue <- handoff{batch, l}
			batch = make([]queued, 0, handoffBatch)
		}
	}
	lr.beforeWait(handOver)
	for {
		line, over, err := lr.next()
		if err != nil {
			handOver()
			close(queue)
			if errors.Is(err, io.EOF) {
				err = nil
			}
			s.end(dir, err)
			return
		}
		if over != nil {
			// In turn with the messages before it: its error response
			// must not overtake them.
			batch = append(batch, queued{over: over})
			continue
		}
		m, ok := parse(dir, line)
		if !ok {
			// Refused in its turn, like any other message.
			m = notJSONMessage(dir, line)
		}
		m.Received = lr.readAt()
		m.blk = lr.take()
		if m.Kind == KindNotification && (m.Method == "session/cancel" || m.Method == "$/cancel_request") && len(b.preempt) > 0 {
			b.runPreempt(m)
		}
		batch = append(batch, queued{m: m})
		if len(batch) == handoffBatch {
			handOver()
		}
	}
}

// hangupPoll is how often the watch of the IDE's input looks at the
// reader, and how long the reader must have been kept from reading before
// the watch asks the kernel whether the IDE has hung up.
const hangupPoll = 100 * time.Millisecond

// watchHangup ends the client's side when the client has closed its end
// while the reader cannot read it: it waits for the loop, which waits for an
// agent that does not read, or it is stuck in a message it dispatches
// itself. The reader would see the end of input only once the agent reads
// again, and an agent that is busy or stuck may never do that. Run then
// shuts the agent down as it does when the reader sees the end itself.
// probe tells whether the client has hung up (see hangupProbe), without
// waiting; stalledSince is set by the reader (see Session.run). The watch
// ends with the reader (done).
func (s *Session) watchHangup(probe func() bool, stalledSince *atomic.Int64, done <-chan struct{}) {
	t := time.NewTicker(hangupPoll)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			since := stalledSince.Load()
			if since == 0 || time.Since(s.started)-time.Duration(since) < hangupPoll || !probe() {
				continue
			}
			s.b.logger.Info("client closed its end while the bridge could not read it (the agent is not reading)")
			s.end(ClientToAgent, nil)
			return
		}
	}
}

// inlineMax is the largest lone message the reader dispatches itself.
const inlineMax = 16 << 10

// handoff is a batch the reader hands to the forwarding loop, with the load
// it was counted as, which the loop gives back once it has handled it.
type handoff struct {
	items []queued
	load  load
}

// queued is one entry of a direction's forwarding queue: a message, or a
// line over the size limit to refuse in its turn.
type queued struct {
	m    *Message
	over *oversized
}

// The reader hands messages to the forwarding loop in batches of up to
// handoffBatch. Behind a slow peer or middleware, at most maxWaiting
// messages and maxWaitingBytes of them wait, however they were batched
// (a batch over either limit goes alone, when nothing else waits). Reading
// ahead that far keeps the reader from waiting for the agent's every write
// while the loop waits for the IDE to read (a much smaller maxWaiting slows
// streaming markedly); the byte bound keeps the bridge's memory small
// behind an IDE that reads slowly (a bound of a few MiB shows in its steady
// RSS). cmd/acp-bridge's BenchmarkStream200k measures the trade.
const (
	handoffBatch    = 64
	maxWaiting      = 1024
	maxWaitingBytes = 1 << 20
)

// load is an amount of messages handed to a forwarding loop.
type load struct{ msgs, bytes int }

// loadOf returns the load of a batch: its messages, and their bytes (for a
// line over the size limit, the parts kept of it).
func loadOf(items []queued) load {
	l := load{msgs: len(items)}
	for _, it := range items {
		if it.m != nil {
			l.bytes += len(it.m.Raw)
		} else {
			l.bytes += len(it.over.head) + len(it.over.tail)
		}
	}
	return l
}

// credit counts the messages handed to a forwarding loop and not yet
// handled, and their bytes, and holds the reader back while there are too
// many of either.
type credit struct {
	mu    sync.Mutex
	freed *sync.Cond
	used  load
	max   load
}

func newCredit(max load) *credit {
	c := &credit{max: max}
	c.freed = sync.NewCond(&c.mu)
	return c
}

// room reports whether l may wait on top of what waits; c.mu is held.
func (c *credit) room(l load) bool {
	return c.used.msgs == 0 || c.used.msgs+l.msgs <= c.max.msgs && c.used.bytes+l.bytes <= c.max.bytes
}

// take waits until l may wait, then counts it.
func (c *credit) take(l load) {
	c.mu.Lock()
	for !c.room(l) {
		c.freed.Wait()
	}
	c.used.msgs += l.msgs
	c.used.bytes += l.bytes
	c.mu.Unlock()
}

// tryTake counts l if it may wait now, and reports whether it did.
func (c *credit) tryTake(l load) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.room(l) {
		return false
	}
	c.used.msgs += l.msgs
	c.used.bytes += l.bytes
	return true
}

// give counts l handled.
func (c *credit) give(l load) {
	c.mu.Lock()
	c.used.msgs -= l.msgs
	c.used.bytes -= l.bytes
	c.mu.Unlock()
	c.freed.Signal()
}

func peerName(dir Direction) string {
	if dir == ClientToAgent {
		return "client"
	}
	return "agent"
}

func preview(b []byte) string {
	const n = 200
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// refuseOversized drops a line over the limit. A request with a readable id
// is answered with an error; a response to a request the bridge forwarded
// is replaced by an error response, so the requester does not wait forever.
func (b *Bridge) refuseOversized(dir Direction, o *oversized) {
	id, isRequest := o.identify()
	b.logger.Error("message over the size limit dropped", "from", peerName(dir), "bytes", o.size, "limit", b.opts.MaxLineSize, "id", string(id))
	if id == nil {
		return
	}
	e := Errorf(CodeInvalidRequest, "message of %d bytes exceeds acp-bridge's limit of %d bytes", o.size, b.opts.MaxLineSize)
	if isRequest {
		_ = b.writers[dir.Reverse()].write(errorResponse(id, e), true)
		return
	}
	// The answer to one of the bridge's own calls: the call gets the error.
	if m, err := Parse(dir, errorResponse(id, e)); err == nil && b.consumeCallResponse(m) {
		return
	}
	b.mu.Lock()
	a := b.awaiting[dir.Reverse()][idKey(id)]
	if a != nil {
		delete(b.awaiting[dir.Reverse()], idKey(id))
		if a.timer != nil {
			a.timer.Stop()
		}
	}
	b.mu.Unlock()
	if a != nil {
		_ = b.writers[dir].write(errorResponse(id, e), true)
	}
}

// dispatch routes one message through the middleware chain.
func (b *Bridge) dispatch(ctx context.Context, m *Message, flush bool) {
	if m.Kind == KindResponse {
		if !b.routeResponse(m) {
			return
		}
	}
	if reason := b.refusalReason(m, &b.strictDec[m.Dir]); reason != "" {
		b.refuse(m, reason)
		if flush {
			b.writers[m.Dir].flush()
		}
		return
	}
	switch m.Kind {
	case KindRequest:
		m.state = &requestState{}
	case KindBatch:
		for _, e := range m.Batch {
			if e.Kind == KindResponse {
				b.matchResponse(e)
			}
		}
	}
	w := b.writers[m.Dir]
	w.batching.Store(!flush)
	err := b.chains[m.Dir].Handle(ctx, m)
	if flush {
		w.flush()
	}
	if m.Kind != KindRequest {
		b.recordFate(m, false)
		switch {
		case errors.Is(err, errPeerGone):
			// The writer said so once, when the peer went.
			b.logger.Debug("not delivered: peer is gone", "kind", m.Kind.String(), "method", m.Method)
		case err != nil:
			b.logger.Warn("middleware error", "kind", m.Kind.String(), "method", m.Method, "err", err)
		}
		return
	}
	// Whatever happens below, a request not passed on gets the bridge's answer.
	defer b.recordFate(m, true)
	b.mu.Lock()
	st := *m.state
	b.mu.Unlock()
	switch {
	case err != nil && !st.answered:
		var rpcErr *Error
		if !errors.As(err, &rpcErr) {
			rpcErr = Errorf(CodeInternalError, "acp-bridge: %v", err)
		}
		_ = b.ReplyError(m, rpcErr)
	case err != nil:
		b.logger.Warn("middleware error after the request was answered", "method", m.Method, "err", err)
	case !st.forwarded && !st.answered:
		_ = b.ReplyError(m, Errorf(CodeInternalError, "acp-bridge dropped the request"))
	}
}

// routeResponse settles a response before middleware: one to a call of
// the bridge's own is consumed, one to a request the bridge already
// answered or never forwarded is dropped. It returns whether m goes on to
// middleware, linked to its request (m.Request).
func (b *Bridge) routeResponse(m *Message) bool {
	if b.consumeCallResponse(m) {
		b.rec.recordHeld(m.Dir, m.Raw, "consumed", m.Received)
		return false
	}
	if b.ownCallID(m.ID) {
		// A late answer to a call that gave up waiting: it is the
		// bridge's, and means nothing to the other peer.
		b.logger.Debug("dropping a late response to the bridge's own call", "id", string(m.ID))
		b.rec.recordHeld(m.Dir, m.Raw, "consumed", m.Received)
		return false
	}
	if !b.matchResponse(m) {
		b.rec.recordHeld(m.Dir, m.Raw, "dropped", m.Received)
		return false
	}
	if m.Request == nil {
		// The peer never saw a request with this id through the bridge
		// (or it was answered and settled): it would match the answer
		// to nothing, or to a later request that reuses the id.
		b.refuse(m, "response to a request the peer was not asked")
		return false
	}
	return true
}

// matchResponse links a response to the request it answers. It returns false
// if the response must be dropped because the bridge already answered.
func (b *Bridge) matchResponse(m *Message) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	key := idKey(m.ID)
	a := b.awaiting[m.Dir.Reverse()][key]
	if a == nil {
		return true // unknown id: forward untouched
	}
	delete(b.awaiting[m.Dir.Reverse()], key)
	if a.timer != nil {
		a.timer.Stop()
	}
	m.Request = a.req
	if a.req.state != nil && a.req.state.answered {
		b.logger.Debug("dropping response to a request the bridge already answered", "method", a.req.Method, "id", key)
		return false
	}
	return true
}

// forward is the end of the middleware chain: it writes m toward its peer.
func (b *Bridge) forward(_ context.Context, m *Message) error {
	if m.IsNotification("$/cancel_request") && !b.cancelsForwarded(m) {
		b.refuse(m, "cancellation of a request the peer was not sent, or that the bridge answered")
		m.original().fate = fateRefused
		return nil
	}
	if m.Kind == KindRequest {
		b.track(m)
	}
	if m.Kind == KindBatch {
		for _, e := range m.Batch {
			if e.Kind == KindRequest {
				b.track(e)
			}
		}
	}
	if m.Original == nil {
		m.fate = fateWritten
	} else if m.Original.fate == fateUnknown {
		m.Original.fate = fateReplaced
	}
	w := b.writers[m.Dir]
	return w.write(m.Raw, !w.batching.Load())
}

// cancelsForwarded reports whether m, a $/cancel_request, names a request
// the bridge forwarded in m's direction and that still waits for its
// response: only then has the peer seen the request it cancels.
func (b *Bridge) cancelsForwarded(m *Message) bool {
	id, ok := m.Get("params", "requestId")
	if !ok {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.awaiting[m.Dir][idKey(id)]
	return a != nil && (a.req.state == nil || !a.req.state.answered)
}

// recordFate adds a message the bridge received but did not pass on with its
// own bytes to the recording, saying what became of it instead: "replaced"
// (a changed copy was sent and is recorded as sent), "answered" (a request
// the bridge answered itself, isRequest) or "dropped". It runs once the
// middleware chain has returned, which is when Handler requires a message's
// fate to be settled.
func (b *Bridge) recordFate(m *Message, isRequest bool) {
	if b.rec == nil || m.fate == fateWritten || m.fate == fateRefused {
		return
	}
	held := "dropped"
	switch {
	case m.fate == fateReplaced:
		held = "replaced"
	case isRequest:
		held = "answered"
	}
	b.rec.recordHeld(m.Dir, m.Raw, held, m.Received)
}

// track records a request being forwarded so its response can be matched.
func (b *Bridge) track(m *Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if m.state == nil {
		m.state = &requestState{}
	}
	if m.state.answered {
		return
	}
	m.state.forwarded = true
	key := idKey(m.ID)
	if prev := b.awaiting[m.Dir][key]; prev != nil {
		b.logger.Warn("peer reused the id of a request still pending", "from", peerName(m.Dir), "id", key)
	}
	a := &awaiting{req: m}
	if m.Dir == ClientToAgent && m.Method == "initialize" && b.opts.InitializeTimeout > 0 {
		a.timer = time.AfterFunc(b.opts.InitializeTimeout, func() {
			_ = b.ReplyError(m, Errorf(CodeInternalError, "agent did not answer initialize within %s", b.opts.InitializeTimeout))
		})
	}
	b.awaiting[m.Dir][key] = a
}

// Reply implements Sender.
func (b *Bridge) Reply(req *Message, result any) error {
	raw, err := marshalRaw(result)
	if err != nil {
		return fmt.Errorf("reply to %s: %w", req.Method, err)
	}
	return b.answer(req, responseBytes(req.original().ID, "result", raw))
}

// ReplyError implements Sender.
func (b *Bridge) ReplyError(req *Message, e *Error) error {
	return b.answer(req, errorResponse(req.original().ID, e))
}

func (b *Bridge) answer(req *Message, resp []byte) error {
	b.mu.Lock()
	st := req.state
	if st == nil {
		b.mu.Unlock()
		return fmt.Errorf("acpwire: %s %s is not a request the bridge is tracking", req.Kind, req.Method)
	}
	if st.answered {
		b.mu.Unlock()
		return fmt.Errorf("acpwire: request %s %s was already answered", req.Method, req.ID)
	}
	st.answered = true
	if a := b.awaiting[req.Dir][idKey(req.ID)]; a != nil && a.req.state == st && a.timer != nil {
		a.timer.Stop()
	}
	b.mu.Unlock()
	return b.writers[req.Dir.Reverse()].write(resp, true)
}

// Notify implements Sender.
func (b *Bridge) Notify(dir Direction, method string, params any) error {
	raw, err := notificationBytes(method, params)
	if err != nil {
		return err
	}
	return b.writers[dir].write(raw, true)
}

// Send writes an already encoded message in direction dir, in order with
// everything else. Use it for messages the bridge composes itself.
func (b *Bridge) Send(dir Direction, raw []byte) error {
	if !rawjson.Valid(raw) {
		return errors.New("acpwire: send: not valid JSON")
	}
	return b.writers[dir].write(raw, true)
}

// pendingCall is a request the bridge sent, waiting for its response.
type pendingCall struct {
	done chan *Message // receives the response; closed if the peer goes away
	// then, if set, runs on the forwarding loop that reads the response,
	// before the peer's next message is handled; its error is kept in
	// thenErr for the caller.
	then    func(result json.RawMessage, err error) error
	thenErr error
}

// Call implements Sender.
func (b *Bridge) Call(ctx context.Context, dir Direction, method string, params any) (json.RawMessage, error) {
	return b.call(ctx, dir, method, params, nil)
}

// CallThen implements Sender.
func (b *Bridge) CallThen(ctx context.Context, dir Direction, method string, params any, then func(result json.RawMessage, err error) error) error {
	_, err := b.call(ctx, dir, method, params, then)
	return err
}

func (b *Bridge) call(ctx context.Context, dir Direction, method string, params any, then func(json.RawMessage, error) error) (json.RawMessage, error) {
	p, err := marshalRaw(params)
	if err != nil {
		return nil, fmt.Errorf("call %s: %w", method, err)
	}
	pc := &pendingCall{done: make(chan *Message, 1), then: then}
	b.mu.Lock()
	b.nextCall++
	id, _ := json.Marshal(b.callID + strconv.FormatUint(b.nextCall, 10))
	b.calls[idKey(id)] = pc
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.calls, idKey(id))
		b.mu.Unlock()
	}()
	req := []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"method":`)
	mb, _ := json.Marshal(method)
	req = append(req, mb...)
	if p != nil {
		req = append(req, `,"params":`...)
		req = append(req, p...)
	}
	req = append(req, '}')
	if err := b.writers[dir].write(req, true); err != nil {
		return nil, fmt.Errorf("call %s: %w", method, err)
	}
	select {
	case resp, ok := <-pc.done:
		if !ok || resp == nil {
			return nil, fmt.Errorf("call %s: peer went away", method)
		}
		result, err := callResult(method, resp)
		if then != nil {
			return result, pc.thenErr
		}
		return result, err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// callResult turns a response into Call's result: the result, or the
// JSON-RPC error as *Error.
func callResult(method string, resp *Message) (json.RawMessage, error) {
	if resp.Error != nil {
		var e Error
		if err := json.Unmarshal(resp.Error, &e); err != nil {
			return nil, fmt.Errorf("call %s: malformed error: %v", method, err)
		}
		return nil, &e
	}
	return resp.Result, nil
}

// ownCallID reports whether id is one the bridge gave a request of its own
// (see call): a JSON string that starts with callID. It runs for every
// response no call consumed, so it allocates nothing.
func (b *Bridge) ownCallID(id json.RawMessage) bool {
	return len(id) > len(b.callID) && id[0] == '"' && string(id[1:1+len(b.callID)]) == b.callID
}

func (b *Bridge) consumeCallResponse(m *Message) bool {
	b.mu.Lock()
	pc := b.calls[idKey(m.ID)]
	delete(b.calls, idKey(m.ID))
	b.mu.Unlock()
	if pc == nil {
		return false
	}
	if pc.then != nil {
		// On the forwarding loop: nothing the peer sent after this
		// response is handled until then has run.
		result, err := callResult("", m)
		pc.thenErr = pc.then(result, err)
	}
	pc.done <- m
	return true
}

// FailPending answers every request still waiting for a response from the
// peer that receives direction dir with err, and fails the bridge's own
// calls to it. The bridge calls it when the agent is gone.
func (b *Bridge) FailPending(dir Direction, err *Error) int {
	b.mu.Lock()
	var reqs []*Message
	for k, a := range b.awaiting[dir] {
		if a.timer != nil {
			a.timer.Stop()
		}
		if a.req.state == nil || !a.req.state.answered {
			reqs = append(reqs, a.req)
		}
		delete(b.awaiting[dir], k)
	}
	for k, pc := range b.calls {
		close(pc.done)
		delete(b.calls, k)
	}
	b.mu.Unlock()
	n := 0
	for _, r := range reqs {
		if b.ReplyError(r, err) == nil {
			n++
		}
	}
	return n
}

func marshalRaw(v any) (json.RawMessage, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if !rawjson.Valid(x) {
			return nil, errors.New("raw value is not valid JSON")
		}
		return x, nil
	case []byte:
		if !rawjson.Valid(x) {
			return nil, errors.New("raw value is not valid JSON")
		}
		return x, nil
	}
	return json.Marshal(v)
}

func responseBytes(id json.RawMessage, member string, value []byte) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	if value == nil {
		value = []byte("null")
	}
	out := make([]byte, 0, len(value)+len(id)+40)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"`...)
	out = append(out, member...)
	out = append(out, `":`...)
	out = append(out, value...)
	return append(out, '}')
}

func errorResponse(id json.RawMessage, e *Error) []byte {
	eb, _ := json.Marshal(e)
	return responseBytes(id, "error", eb)
}

func notificationBytes(method string, params any) ([]byte, error) {
	p, err := marshalRaw(params)
	if err != nil {
		return nil, fmt.Errorf("notify %s: %w", method, err)
	}
	mb, _ := json.Marshal(method)
	out := append([]byte(`{"jsonrpc":"2.0","method":`), mb...)
	if p != nil {
		out = append(out, `,"params":`...)
		out = append(out, p...)
	}
	return append(out, '}'), nil
}
