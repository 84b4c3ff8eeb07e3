package otelexport

import (
	"context"
	"sync/atomic"
)

// queueRoom tells how many ended spans wait in the export queue, so that
// the tool spans the audit log makes are not dropped by a full queue: a
// burst of tool calls (an agent announcing thousands at once) or a
// collector slower than the agent would otherwise drop the spans ended
// last, a denial the reviewer looks for among them. The queue itself is
// the SDK's and does not say how full it is; this counts the spans ended
// against those the exporter was handed (sent or failed), and learns at
// each flush how many a full queue dropped without the exporter seeing
// them.
type queueRoom struct {
	ended   atomic.Int64 // spans ended, exported or not
	handled atomic.Int64 // spans handed to the exporter, sent or failed
	dropped atomic.Int64 // spans found dropped by a full queue
}

// queued estimates the spans waiting in the export queue.
func (q *queueRoom) queued() int64 {
	return q.ended.Load() - q.handled.Load() - q.dropped.Load()
}

// makeRoom waits until the export queue is at most half full, for at
// most the export timeout or until ctx is done: while it is fuller, it
// flushes the queue (the exporter's timeout bounds each request, so a
// collector that is down empties it too, by failed exports). The other half is for the spans that must
// never wait: the turns the wire ends, and those of the bridge's stop.
// Only the audit log's reader and Close call it, never the wire.
func (t *Tracer) makeRoom(ctx context.Context) {
	q := &t.room
	if q.queued() < int64(t.cfg.QueueSize/2) || ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, t.cfg.Timeout)
	defer cancel()
	before := q.ended.Load()
	if t.prov.ForceFlush(ctx) != nil {
		return
	}
	// Every span ended before the flush began has been exported, has
	// failed, or was dropped by a full queue.
	if lost := before - q.handled.Load() - q.dropped.Load(); lost > 0 {
		q.dropped.Add(lost)
	}
}
