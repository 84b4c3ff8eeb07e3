package acpwire

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// run reads one direction's messages and hands them, in order, to a
// forwarding loop, which writes them and flushes whenever it has caught up.
// The reader hands over what it has parsed in batches: each time it is
// about to wait for more input, and every handoffBatch messages.
//
// While no middleware may keep messages (see UseNonRetaining; the preempt
// hooks of such middleware keep nothing either), the reader reuses its
// read blocks: a message's block goes back to the pool once the loop has
// written the message with its own bytes, and the message itself goes
// back for the next line (message_pool.go). Requests and batches are the
// exception: the bridge keeps them to match their responses (and answer
// them if the peer goes away), so their blocks are left to the garbage
// collector.
func (s *Session) run(ctx context.Context, dir Direction, in io.Reader) {
	b := s.b
	lr := newLineReader(in, b.opts.MaxLineSize)
	if !b.retaining {
		s.pools[dir] = newBlockPool()
		lr.reuseBlocks(s.pools[dir])
	}
	// handle dispatches a batch in order; last says nothing waits behind it,
	// so the writer flushes after its last message.
	handle := func(items []queued, last bool) {
		var released blockReleases
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
			if m.blk != nil && m.fate == fateWritten && !m.handedOut && m.Kind != KindRequest && m.Kind != KindBatch {
				released.add(m.blk) // written, and kept by nobody
				s.pools[dir].recycle(m)
			}
		}
		released.flush()
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
		lr.settle() // the batch's references counted before anyone may release them
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
