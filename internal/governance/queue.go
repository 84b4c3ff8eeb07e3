package governance

import (
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
}

type queued struct {
	ev  audit.Event
	res chan error // nil for Append
}

// QueueSize is how many records a QueuedRecorder holds before Append waits.
const QueueSize = 512

// NewQueuedRecorder starts the goroutine that feeds r. logger receives the
// errors of Append calls, which cannot be returned; nil discards them.
func NewQueuedRecorder(r Recorder, logger *slog.Logger) *QueuedRecorder {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	q := &QueuedRecorder{r: r, log: logger, q: make(chan queued, QueueSize), done: make(chan struct{})}
	go q.run()
	return q
}

func (q *QueuedRecorder) run() {
	defer close(q.done)
	for it := range q.q {
		if it.res != nil {
			it.res <- q.r.AppendSync(it.ev)
			continue
		}
		if err := q.r.Append(it.ev); err != nil {
			q.log.Warn("audit append failed", "action", it.ev.Action, "err", err)
		}
	}
}

// Append queues ev. After Close it appends directly.
func (q *QueuedRecorder) Append(ev audit.Event) error {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return q.r.Append(ev)
	}
	q.q <- queued{ev: ev}
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
	q.q <- queued{ev: ev, res: res}
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
