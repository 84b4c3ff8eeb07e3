package governance

import (
	"encoding/json"
	"io"
	"log/slog"
	"sync"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// QueuedRecorder runs a Recorder's appends on a goroutine of its own, in
// the order they were made, so the bridge's handlers do not wait while
// records are redacted, encoded and hashed. AppendSync still returns only
// once its record, and every record queued before it, has been handed to
// the underlying recorder and written. It is safe for concurrent use.
type QueuedRecorder struct {
	r    Recorder
	log  *slog.Logger
	q    chan queued
	done chan struct{}

	mu     sync.RWMutex // guards closed; held for reading while sending on q
	closed bool

	bmu      sync.Mutex // guards bytes
	bfree    *sync.Cond // signalled when bytes goes down
	bytes    int        // estimated size of the records queued
	maxBytes int
}

type queued struct {
	ev   audit.Event
	res  chan error // nil for Append
	size int        // eventSize(ev)
}

// QueueSize is how many records a QueuedRecorder holds before Append waits.
const QueueSize = 512

// QueueBytes is how many bytes of records (as eventSize counts them) a
// QueuedRecorder holds before Append waits: records hold copies of what
// they carry (a tool call's output, up to megabytes), so the count alone
// does not bound memory. A record larger than this is queued alone.
const QueueBytes = 16 << 20

// NewQueuedRecorder starts the goroutine that feeds r. logger receives the
// errors of Append calls, which cannot be returned; nil discards them.
func NewQueuedRecorder(r Recorder, logger *slog.Logger) *QueuedRecorder {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return newQueuedRecorder(r, logger, QueueBytes)
}

func newQueuedRecorder(r Recorder, logger *slog.Logger, maxBytes int) *QueuedRecorder {
	q := &QueuedRecorder{r: r, log: logger, q: make(chan queued, QueueSize), done: make(chan struct{}), maxBytes: maxBytes}
	q.bfree = sync.NewCond(&q.bmu)
	go q.run()
	return q
}

func (q *QueuedRecorder) run() {
	defer close(q.done)
	for it := range q.q {
		if it.res != nil {
			it.res <- q.r.AppendSync(it.ev)
		} else if err := q.r.Append(it.ev); err != nil {
			q.log.Warn("audit append failed", "action", it.ev.Action, "err", err)
		}
		q.release(it.size)
	}
}

// reserve waits until size more bytes fit in the queue (or it is empty),
// and counts them.
func (q *QueuedRecorder) reserve(size int) {
	q.bmu.Lock()
	for q.bytes > 0 && q.bytes+size > q.maxBytes {
		q.bfree.Wait()
	}
	q.bytes += size
	q.bmu.Unlock()
}

func (q *QueuedRecorder) release(size int) {
	q.bmu.Lock()
	q.bytes -= size
	q.bmu.Unlock()
	q.bfree.Broadcast()
}

// queuedBytes returns the estimated size of the records queued.
func (q *QueuedRecorder) queuedBytes() int {
	q.bmu.Lock()
	defer q.bmu.Unlock()
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

// Append queues ev. After Close it appends directly.
func (q *QueuedRecorder) Append(ev audit.Event) error {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return q.r.Append(ev)
	}
	size := eventSize(ev)
	q.reserve(size)
	q.q <- queued{ev: ev, size: size}
	return nil
}

// AppendSync queues ev behind everything queued before it and waits until
// the underlying recorder has written it.
func (q *QueuedRecorder) AppendSync(ev audit.Event) error {
	q.mu.RLock()
	if q.closed {
		q.mu.RUnlock()
		return q.r.AppendSync(ev)
	}
	res := make(chan error, 1)
	size := eventSize(ev)
	q.reserve(size)
	q.q <- queued{ev: ev, res: res, size: size}
	q.mu.RUnlock()
	return <-res
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
	close(q.q)
	q.mu.Unlock()
	<-q.done
}
