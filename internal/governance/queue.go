package governance

import (
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// QueuedRecorder runs a Recorder's appends on a goroutine of its own, in
// the order they were made, so the bridge's handlers do not wait while
// records are redacted, encoded and hashed. AppendSync still returns only
// once its record, and every record queued before it, has been handed to
// the underlying recorder and written. It is safe for concurrent use.
//
// Records from Append linger in the queue (up to Linger, or until
// LingerRecords of them wait) before the goroutine is woken to take them
// all: a tool call makes two or three records a few messages apart, and
// waking a goroutine for each cost the bridge more than some of the
// records did. The underlying log buffers them for longer than that
// anyway (audit.DefaultFlushInterval). An AppendSync, a full queue and
// Close wake it at once.
type QueuedRecorder struct {
	r    Recorder
	log  *slog.Logger
	wake chan struct{} // capacity 1: the writer is to look at items
	done chan struct{}
	// timer wakes the writer when the first record of a batch has
	// lingered long enough.
	timer *time.Timer

	mu      sync.Mutex // guards the fields below
	room    *sync.Cond // signalled when bytes or the number of items goes down
	items   []queued   // records queued, oldest first
	bytes   int        // estimated size of the records queued or being written
	waiting int        // Appends waiting for room: Close lets them in
	armed   bool       // timer runs for the records in items
	closed  bool

	maxBytes int
}

type queued struct {
	ev   audit.Event
	res  chan error // nil for Append
	seq  *int64     // where AppendSyncSeq wants ev's seq; nil for the others
	size int        // eventSize(ev)
}

// QueueSize is how many records a QueuedRecorder holds before Append waits.
const QueueSize = 512

// QueueBytes is how many bytes of records (as eventSize counts them) a
// QueuedRecorder holds before Append waits: records hold copies of what
// they carry (a tool call's output, up to megabytes), so the count alone
// does not bound memory. A record larger than this is queued alone.
const QueueBytes = 16 << 20

// Linger is the longest a record from Append waits in a QueuedRecorder
// before the writer is woken for it; LingerRecords records waiting wake it
// sooner.
const (
	Linger        = 10 * time.Millisecond
	LingerRecords = 64
)

// NewQueuedRecorder starts the goroutine that feeds r. logger receives the
// errors of Append calls, which cannot be returned; nil discards them.
func NewQueuedRecorder(r Recorder, logger *slog.Logger) *QueuedRecorder {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return newQueuedRecorder(r, logger, QueueBytes)
}

func newQueuedRecorder(r Recorder, logger *slog.Logger, maxBytes int) *QueuedRecorder {
	q := &QueuedRecorder{r: r, log: logger, wake: make(chan struct{}, 1), done: make(chan struct{}), maxBytes: maxBytes}
	q.room = sync.NewCond(&q.mu)
	q.timer = time.AfterFunc(time.Hour, q.wakeUp)
	q.timer.Stop()
	go q.run()
	return q
}

// wakeUp tells the writer to look at the queue; it never blocks.
func (q *QueuedRecorder) wakeUp() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// run is the writer: it takes every record queued at once and hands them
// to the underlying recorder in order.
func (q *QueuedRecorder) run() {
	defer close(q.done)
	var batch []queued
	for {
		q.mu.Lock()
		for len(q.items) == 0 {
			if q.closed && q.waiting == 0 {
				q.mu.Unlock()
				return
			}
			q.mu.Unlock()
			<-q.wake
			q.mu.Lock()
		}
		batch, q.items = q.items, batch[:0]
		if q.armed {
			q.armed = false
			q.timer.Stop()
		}
		q.mu.Unlock()
		for i := range batch {
			it := &batch[i]
			if it.seq != nil {
				var err error
				*it.seq, err = appendSyncSeq(q.r, it.ev)
				it.res <- err
			} else if it.res != nil {
				it.res <- q.r.AppendSync(it.ev)
			} else if err := q.r.Append(it.ev); err != nil {
				q.log.Warn("audit append failed", "action", it.ev.Action, "err", err)
			}
			q.release(it.size)
			*it = queued{} // the event's values can go
		}
	}
}

// enqueue queues it behind every record before it, waiting until it fits
// (or nothing is queued or being written), and wakes the writer now or arms the timer. It
// reports false, queueing nothing, after Close.
func (q *QueuedRecorder) enqueue(it queued) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	// The bytes count the records being written too, as the memory
	// they hold does.
	for q.bytes > 0 && q.bytes+it.size > q.maxBytes || len(q.items) >= QueueSize {
		q.wakeUp()
		q.waiting++
		q.room.Wait()
		q.waiting--
	}
	q.items = append(q.items, it)
	q.bytes += it.size
	switch {
	case it.res != nil || q.closed || len(q.items) >= LingerRecords || 2*q.bytes >= q.maxBytes:
		q.wakeUp()
	case !q.armed:
		q.armed = true
		q.timer.Reset(Linger)
	}
	return true
}

func (q *QueuedRecorder) release(size int) {
	q.mu.Lock()
	q.bytes -= size
	q.mu.Unlock()
	q.room.Broadcast()
}

// queuedBytes returns the estimated size of the records queued.
func (q *QueuedRecorder) queuedBytes() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.bytes
}

// eventSize estimates the memory ev holds: a fixed part, and the bytes of
// the strings and raw JSON in its input, output and metadata.
func eventSize(ev audit.Event) int {
	return 256 + len(ev.Action) + len(ev.Actor.ID) + len(ev.Subject.Ref) + len(ev.Subject.Path) +
		valueSize(ev.Input) + valueSize(ev.Output) + valueSize(ev.Metadata)
}

func valueSize(v any) int {
	switch v := v.(type) {
	case nil:
		return 0
	case string:
		return 16 + len(v)
	case json.RawMessage:
		return 24 + len(v)
	case audit.ToolOutput:
		return 24 + len(v)
	case *audit.ReadOutput:
		if v == nil {
			return 0
		}
		return 48 + v.Len()
	case []byte:
		return 24 + len(v)
	case map[string]any:
		n := 48
		for k, e := range v {
			n += 16 + len(k) + valueSize(e)
		}
		return n
	case []any:
		n := 24
		for _, e := range v {
			n += 16 + valueSize(e)
		}
		return n
	case audit.ToolCall:
		return 128 + len(v.Session) + len(v.ToolCallID) + len(v.Tool) + valueSize(v.Arguments) + valueSize(v.Result) + valueSize(v.Error)
	case *audit.ToolCall:
		if v == nil {
			return 0
		}
		return valueSize(*v)
	}
	return 16
}

// Append queues ev. After Close it appends directly, once every record
// queued before Close is written: the chain keeps the order of the calls.
func (q *QueuedRecorder) Append(ev audit.Event) error {
	if !q.enqueue(queued{ev: ev, size: eventSize(ev)}) {
		<-q.done
		return q.r.Append(ev)
	}
	return nil
}

// AppendSync queues ev behind everything queued before it and waits until
// the underlying recorder has written it. After Close it appends directly,
// as Append does.
func (q *QueuedRecorder) AppendSync(ev audit.Event) error {
	res := make(chan error, 1)
	if !q.enqueue(queued{ev: ev, res: res, size: eventSize(ev)}) {
		<-q.done
		return q.r.AppendSync(ev)
	}
	return <-res
}

// AppendSyncSeq is AppendSync that also returns the seq the event was
// written under, where the underlying recorder tells it (audit.Log
// does), else -1.
func (q *QueuedRecorder) AppendSyncSeq(ev audit.Event) (int64, error) {
	res, seq := make(chan error, 1), new(int64)
	if !q.enqueue(queued{ev: ev, res: res, seq: seq, size: eventSize(ev)}) {
		<-q.done
		return appendSyncSeq(q.r, ev)
	}
	err := <-res
	return *seq, err
}

// ReadValidToolOutput reads a tool's output, valid JSON, as the
// underlying recorder stores it, where that recorder reads outputs
// (audit.Log.ReadValidToolOutput); else it returns a copy of raw as an
// audit.ToolOutput (nil when raw is empty). It reads on the caller's
// goroutine: raw is usually a slice of a buffer reused once the caller
// returns, and a reading holds much less than a copy of raw does.
func (q *QueuedRecorder) ReadValidToolOutput(raw []byte) any {
	if len(raw) == 0 {
		return nil
	}
	if r, ok := q.r.(outputReader); ok {
		return r.ReadValidToolOutput(raw)
	}
	return audit.ToolOutput(append([]byte(nil), raw...))
}

// Healthy reports the underlying recorder's health.
func (q *QueuedRecorder) Healthy() error { return q.r.Healthy() }

// Close hands every queued record to the underlying recorder and stops the
// goroutine. It does not close the underlying recorder.
func (q *QueuedRecorder) Close() {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.closed = true
	q.mu.Unlock()
	q.wakeUp()
	<-q.done
	q.timer.Stop()
}
