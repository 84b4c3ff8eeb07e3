package otelexport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// Defaults for Config's optional fields.
const (
	DefaultBatchSize       = 512
	DefaultCheckpointEvery = 1000
	DefaultTimeout         = 10 * time.Second
	DefaultPoll            = 200 * time.Millisecond
	maxBackoff             = 5 * time.Second
)

// Config configures an Exporter.
type Config struct {
	// LogPath is the audit log's active file; its rotated files
	// (<LogPath>.NNNNNN) are read first.
	LogPath string
	// Endpoint is the OTLP/HTTP base URL (http://host:4318). Optional;
	// if empty, OTEL_EXPORTER_OTLP_ENDPOINT (or the SDK's default).
	// OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_CERTIFICATE and the
	// other standard variables apply as the SDK reads them.
	Endpoint string
	// Headers are added to every request (authentication). Optional.
	Headers map[string]string
	// CursorPath is the cursor file. Optional; if empty,
	// CursorPath(LogPath).
	CursorPath string
	// BatchSize is the most events sent in one request, and so the most
	// held in memory. Optional; if zero, DefaultBatchSize.
	BatchSize int
	// CheckpointEvery sends a chain checkpoint after this many events;
	// one is also sent with every batch holding a session.end or
	// bridge.stop, and at Close. Optional; if zero,
	// DefaultCheckpointEvery.
	CheckpointEvery int
	// Timeout bounds one request. Optional; if zero, DefaultTimeout.
	Timeout time.Duration
	// Poll is how often the log is read for new events once everything
	// was sent. Optional; if zero, DefaultPoll.
	Poll time.Duration
	// BridgeVersion, User and Agent are resource attributes
	// (service.version, user.name, gen_ai.agent.name); host.name is
	// detected, and OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME
	// override all of them. Optional: an empty BridgeVersion or User is
	// the binary's module version or the current user.
	BridgeVersion, User, Agent string
	// Logger hears of outages and recoveries. Optional; nil discards.
	Logger *slog.Logger
}

// Exporter sends an audit log to a collector. Run sends as the log
// grows; Close stops it, flushing for a bounded time.
type Exporter struct {
	cfg     Config
	logName string
	log     *slog.Logger
	exp     *otlploghttp.Exporter
	prov    *sdklog.LoggerProvider
	logger  log.Logger
	capture *capture

	rd     *logReader
	cursor Cursor
	batch  []audit.Entry // read, not yet acknowledged
	anoms  []anomaly     // found with batch, not yet acknowledged
	since  int           // events sent since the last checkpoint

	failures atomic.Int64

	stop    chan struct{}
	done    chan struct{}
	stopper sync.Once
	// stopBy is when Close gives up sending; set before stop is closed.
	stopBy  time.Time
	started bool
}

// New returns an Exporter for cfg, positioned after what its cursor file
// says the collector acknowledged. It does not connect yet.
func New(ctx context.Context, cfg Config) (*Exporter, error) {
	if cfg.LogPath == "" {
		return nil, errors.New("otlp export: no audit log")
	}
	abs, err := filepath.Abs(cfg.LogPath)
	if err != nil {
		return nil, err
	}
	if cfg.CursorPath == "" {
		cfg.CursorPath = CursorPath(abs)
	}
	cfg.BridgeVersion, cfg.User = identity(cfg.BridgeVersion, cfg.User)
	cfg.BatchSize = orDefault(cfg.BatchSize, DefaultBatchSize)
	cfg.CheckpointEvery = orDefault(cfg.CheckpointEvery, DefaultCheckpointEvery)
	cfg.Timeout = orDefault(cfg.Timeout, DefaultTimeout)
	cfg.Poll = orDefault(cfg.Poll, DefaultPoll)
	lg := orDiscard(cfg.Logger)
	cur, err := LoadCursor(cfg.CursorPath)
	if err != nil {
		return nil, err
	}
	opts := append([]otlploghttp.Option{otlploghttp.WithTimeout(cfg.Timeout),
		// The Exporter retries itself, keeping order and the cursor.
		otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false})},
		transport(cfg.Endpoint, "/v1/logs", cfg.Headers, otlploghttp.WithEndpointURL, otlploghttp.WithHeaders)...)
	exp, err := otlploghttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("otlp export: %w", err)
	}
	res, err := bridgeResource(ctx, cfg)
	if err != nil && res == nil {
		return nil, fmt.Errorf("otlp export: resource: %w", err)
	}
	c := &capture{}
	prov := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(c))
	return &Exporter{
		cfg: cfg, logName: abs, log: lg, exp: exp, prov: prov, capture: c,
		logger: prov.Logger("github.com/acp-bridge/acp-bridge/audit"),
		rd:     &logReader{path: abs, next: cur.Seq + 1, prev: cur.Hash, cursor: cur},
		cursor: cur,
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}, nil
}

// Cursor returns what the collector has acknowledged. Not safe while Run
// is running.
func (x *Exporter) Cursor() Cursor { return x.cursor }

// Failures returns how many requests the collector failed or did not
// answer so far.
func (x *Exporter) Failures() int64 { return x.failures.Load() }

// Start runs the exporter in the background until Close.
func (x *Exporter) Start() {
	x.started = true
	go func() {
		defer close(x.done)
		x.run()
	}()
}

// run sends as the log grows, backing off while the collector fails.
func (x *Exporter) run() {
	backoff := time.Duration(0)
	down := false
	for {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			select {
			case <-x.stop:
				// A request under way may have reached the collector:
				// cancelling it now would send its events again in
				// Close's flush. It gets until Close's deadline.
				t := time.NewTimer(time.Until(x.stopBy))
				defer t.Stop()
				select {
				case <-t.C:
					cancel()
				case <-ctx.Done():
				}
			case <-ctx.Done():
			}
		}()
		n, err := x.step(ctx, false)
		cancel()
		wait := x.cfg.Poll
		switch {
		case err != nil:
			if !down {
				x.log.Warn("otlp export: the collector is not taking audit events; they stay in the log and are sent when it is back",
					"endpoint", x.cfg.Endpoint, "err", err)
			}
			down = true
			backoff = min(max(2*backoff, 250*time.Millisecond), maxBackoff)
			wait = backoff
		case n > 0:
			if down {
				x.log.Info("otlp export: the collector is back", "endpoint", x.cfg.Endpoint)
			}
			down, backoff, wait = false, 0, 0
		}
		select {
		case <-x.stop:
			return
		case <-time.After(wait):
		}
	}
}

// step sends the next batch (the one that failed last, else the next
// events of the log) and moves the cursor once the collector acknowledged
// it. It returns how many events it sent.
func (x *Exporter) step(ctx context.Context, final bool) (int, error) {
	if len(x.batch) == 0 && len(x.anoms) == 0 {
		if err := x.fill(); err != nil {
			return 0, err
		}
	}
	if len(x.batch) == 0 && len(x.anoms) == 0 {
		return 0, nil
	}
	x.capture.recs = x.capture.recs[:0]
	for _, a := range x.anoms {
		x.logger.Emit(ctx, anomalyRecord(a, x.logName))
	}
	if len(x.batch) == 0 {
		if err := x.exp.Export(ctx, x.capture.recs); err != nil {
			x.failures.Add(1)
			return 0, err
		}
		x.log.Warn("otlp export: lines of the audit log that are not unaltered events of its chain were reported, not sent", "count", len(x.anoms))
		x.anoms = nil
		return 0, nil
	}
	checkpoint := final || x.since+len(x.batch) >= x.cfg.CheckpointEvery
	for i := range x.batch {
		e := &x.batch[i]
		x.logger.Emit(ctx, eventRecord(e, x.logName))
		if e.Action == "session.end" || e.Action == "bridge.stop" {
			checkpoint = true
		}
	}
	last := &x.batch[len(x.batch)-1]
	if checkpoint {
		x.logger.Emit(ctx, checkpointRecord(last, x.logName))
	}
	if err := x.exp.Export(ctx, x.capture.recs); err != nil {
		x.failures.Add(1)
		return 0, err
	}
	n := len(x.batch)
	if len(x.anoms) > 0 {
		x.log.Warn("otlp export: lines of the audit log that are not unaltered events of its chain were reported, not sent", "count", len(x.anoms))
	}
	x.cursor = Cursor{Seq: last.Seq, Hash: last.Hash, RunID: last.RunID}
	x.batch, x.anoms = nil, nil
	if checkpoint {
		x.since = 0
	} else {
		x.since += n
	}
	if err := SaveCursor(x.cfg.CursorPath, x.cursor); err != nil {
		// Sent but not recorded: sent again next time (at least once).
		x.log.Warn("otlp export: "+err.Error(), "file", x.cfg.CursorPath)
	}
	return n, nil
}

// Flush sends everything the log holds now, ending with a checkpoint,
// and returns how many events it sent. Use it without Start (audit
// export); it stops at the first failure.
func (x *Exporter) Flush(ctx context.Context) (int, error) {
	sent := 0
	for {
		n, err := x.step(ctx, x.caughtUpAfter())
		sent += n
		if err != nil {
			return sent, err
		}
		if n == 0 {
			return sent, nil
		}
	}
}

// caughtUpAfter reports whether the batch about to be sent is the last
// the log holds now, so that it carries the final checkpoint.
func (x *Exporter) caughtUpAfter() bool {
	if len(x.batch) == 0 && len(x.anoms) == 0 {
		if err := x.fill(); err != nil {
			return false
		}
	}
	return len(x.batch) < x.cfg.BatchSize
}

// fill reads the next batch and the anomalies found on the way.
func (x *Exporter) fill() error {
	es, err := x.rd.read(x.cfg.BatchSize)
	x.batch = es
	x.anoms = append(x.anoms, x.rd.takeAnomalies()...)
	if err != nil {
		return fmt.Errorf("reading the audit log: %w", err)
	}
	return nil
}

// Close stops sending in the background (a request under way is let
// finish), then sends what is left, all within timeout, and returns how
// many events are still not acknowledged (they stay in the log and are
// sent next time).
func (x *Exporter) Close(timeout time.Duration) (pending int, err error) {
	stopBy := time.Now().Add(timeout)
	x.stopper.Do(func() {
		x.stopBy = stopBy
		close(x.stop)
	})
	if x.started {
		<-x.done
	}
	ctx, cancel := context.WithDeadline(context.Background(), stopBy)
	defer cancel()
	_, err = x.Flush(ctx)
	pending = len(x.batch)
	for {
		es, rerr := x.rd.read(x.cfg.BatchSize)
		pending += len(es)
		if rerr != nil || len(es) == 0 {
			break
		}
	}
	x.rd.close()
	sctx, scancel := context.WithTimeout(context.Background(), time.Second)
	defer scancel()
	x.exp.Shutdown(sctx)
	x.prov.Shutdown(sctx)
	return pending, err
}

// capture is a log processor that keeps what is emitted, so that the
// Exporter sends records itself and knows when they were acknowledged.
type capture struct{ recs []sdklog.Record }

func (c *capture) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (c *capture) OnEmit(_ context.Context, r *sdklog.Record) error {
	c.recs = append(c.recs, r.Clone())
	return nil
}
func (c *capture) Shutdown(context.Context) error   { return nil }
func (c *capture) ForceFlush(context.Context) error { return nil }
