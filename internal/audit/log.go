package audit

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Defaults for Options.
const (
	// DefaultFlushInterval is the longest a record appended with Append
	// waits in memory before it is written to the file.
	DefaultFlushInterval = 200 * time.Millisecond
	// DefaultMaxValueBytes is the longest string kept whole in input,
	// output or metadata.
	DefaultMaxValueBytes = 8 << 10
	// DefaultMaxFieldBytes is the largest canonical size of input, output
	// or metadata after redaction; a larger one is replaced by a
	// {"$truncated": true, "bytes", "sha256"} marker.
	DefaultMaxFieldBytes = 64 << 10
)

// flushThreshold is how many buffered bytes make Append write at once.
const flushThreshold = 256 << 10

// maxPending bounds the bytes kept in memory while the file cannot be
// written; beyond it Append refuses new records (ErrBacklog).
const maxPending = 64 << 20

// ErrClosed is returned by appends to a closed Log.
var ErrClosed = errors.New("audit log is closed")

// ErrInUse is returned by Open when another Log, in this process or
// another, has the same file open: two writers would fork the chain.
var ErrInUse = errors.New("audit log is in use by another writer")

// ErrBacklog is returned by appends while the file has been failing for so
// long that the records waiting in memory reached their limit.
var ErrBacklog = errors.New("audit log backlog full: the file cannot be written")

// Options configure a Log. The zero value is usable.
type Options struct {
	// MaxBytes rotates the file before it would grow beyond this size:
	// the file is renamed to <path>.000001 (then .000002, ...) and a new
	// <path> continues the same hash chain. Optional; zero means never.
	MaxBytes int64
	// FlushInterval is the longest a record appended with Append stays
	// in memory. Optional; if zero, DefaultFlushInterval.
	FlushInterval time.Duration
	// MaxValueBytes caps strings. Optional; if zero, DefaultMaxValueBytes.
	MaxValueBytes int
	// MaxFieldBytes caps input, output and metadata. Optional; if zero,
	// DefaultMaxFieldBytes.
	MaxFieldBytes int
	// Content says how tools' output (ToolOutput) is stored. Optional;
	// the zero value is ContentDigest.
	Content ContentMode
	// Actor is who the log records its own events as (a repair of a torn
	// line found at Open). Optional; if zero, {ID: "acp-bridge", Role:
	// "system"}.
	Actor Actor
	// RunID is written in every event as runId, so that a review can
	// tell one bridge run from the next. Optional; if empty, Open makes
	// one from the UTC time and 32 random bits (20261121T200000Z-1a2b3c4d).
	// It must match [0-9A-Za-z][0-9A-Za-z._-]{0,63}.
	RunID string
	// Logger receives write failures and recoveries. Optional; nil
	// discards.
	Logger *slog.Logger
	// Now returns the time stamped on each event. Optional; nil means
	// time.Now. Tests set it for stable output.
	Now func() time.Time

	// openFile opens the active file for appending; tests replace it to
	// inject write failures. Nil means openAppend.
	openFile func(name string) (file, error)
}

// Log is an append-only, hash-chained audit log file. It is safe for
// concurrent use; records are written in the order their Append or
// AppendSync calls took the log's lock, and seq numbers follow that order.
type Log struct {
	path  string
	opts  Options
	red   redactor
	last  lastOutput // the tool output read last, for the next record
	log   *slog.Logger
	stop  chan struct{}
	done  chan struct{}
	close sync.Once
	lock  *os.File // held from Open to Close; nil where locking is unsupported

	// syncMu serializes fsyncs (group commit) and guards synced.
	syncMu sync.Mutex
	synced int64 // highest seq known to be on stable storage

	mu      sync.Mutex  // guards the fields below
	f       file        // the active file; nil after a failure until reopened
	fi      os.FileInfo // identity of the active file (kept while f is nil)
	written int64       // bytes of the active file: what it held at open plus what the Log wrote
	gen     int         // incremented each time f changes
	// unchecked holds the lines written since the file was last found
	// where it belongs, to write again if it turns out deleted.
	unchecked []byte
	// tamper is set from finding the file tampered with until a new file
	// holds the audit.tamper event; tamperChained once that event is in
	// buf.
	tamper        *tamper
	tamperChained bool
	buf           []byte // complete lines not yet written to f
	scratch       []byte // reused for the hashed form of an event
	// stampAt and stampText are the millisecond of the last ts and its
	// text: records come many to a millisecond.
	stampAt   int64
	stampText string
	next      int64  // seq of the next event
	prev      string // hash of the last event, or Genesis
	size      int64  // bytes of the active file including buf
	rotated   int    // number of the last rotated file
	werr      error  // the last write failure, nil once writing works
	closed    bool
	// closeErr is what Close returned: AppendSyncs that raced with Close
	// report it.
	closeErr error
}

// Open opens (or creates, mode 0600) the audit log at path and continues
// its hash chain: the next event follows the last complete line of path, or
// of the newest rotated file <path>.NNNNNN when path is empty or missing.
// A torn last line, left by a crash in the middle of a write, is repaired
// as Repair does and the repair is itself recorded as an "audit.repair"
// event. Open fails when the last line is not an audit event, rather than
// extend a chain it cannot read, and with ErrInUse when another Log holds
// the file (an advisory lock on .<name>.lock in the same directory).
func Open(path string, opts Options) (*Log, error) {
	if opts.FlushInterval <= 0 {
		opts.FlushInterval = DefaultFlushInterval
	}
	if opts.MaxValueBytes <= 0 {
		opts.MaxValueBytes = DefaultMaxValueBytes
	}
	if opts.MaxFieldBytes <= 0 {
		opts.MaxFieldBytes = DefaultMaxFieldBytes
	}
	if opts.Actor.ID == "" {
		opts.Actor = Actor{ID: "acp-bridge", Role: "system"}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.openFile == nil {
		opts.openFile = openAppend
	}
	if opts.RunID == "" {
		opts.RunID = newRunID(time.Now())
	} else if !runIDPattern.MatchString(opts.RunID) {
		return nil, fmt.Errorf("audit log run id %q: want letters, digits, '.', '_' or '-', at most 64", opts.RunID)
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	l := &Log{
		path: path,
		opts: opts,
		red:  redactor{maxValue: opts.MaxValueBytes, headLen: min(1024, opts.MaxValueBytes)},
		log:  lg,
		stop: make(chan struct{}),
		done: make(chan struct{}),
		prev: Genesis,
	}

	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		// Whoever planted it (an agent in an earlier session, a cloned
		// repository) chose where the bridge would create and extend
		// a file: the log is opened only under its own name.
		return nil, fmt.Errorf("audit log %s is a symbolic link: give the log's own path", path)
	} else if err == nil && !fi.Mode().IsRegular() {
		// A named pipe would hold the bridge's start until someone
		// opened its other end.
		return nil, fmt.Errorf("audit log %s is not a regular file", path)
	}
	rotated, err := rotatedFiles(path)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Split(path)
	if l.lock, err = lockFile(filepath.Join(dir, "."+base+".lock")); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok && l.lock != nil {
			l.lock.Close()
		}
	}()
	if len(rotated) > 0 {
		l.rotated = rotated[len(rotated)-1].n
	}
	repair, err := Repair(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	tail, err := lastRecord(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if tail == nil && len(rotated) > 0 {
		if tail, err = lastRecord(rotated[len(rotated)-1].name); err != nil {
			return nil, err
		}
	}
	if tail != nil {
		l.next = tail.Seq + 1
		l.prev = tail.Hash
		l.synced = tail.Seq
	} else {
		l.synced = -1
	}
	if fi, err := os.Stat(path); err == nil {
		l.size = fi.Size()
	}
	f, err := opts.openFile(path)
	if err != nil {
		return nil, fmt.Errorf("opening audit log: %w", err)
	}
	l.setFileLocked(f)
	syncDir(path)
	ok = true
	go l.flusher()

	if repair.Torn {
		l.log.Warn("audit log: repaired a torn last line", "file", path, "bytes", len(repair.Removed), "completed", repair.Completed)
		in := map[string]any{"file": path, "bytes": len(repair.Removed), "sha256": hashHex(repair.Removed)}
		action := "audit.repair"
		if repair.Completed {
			in["completed"] = true
		}
		if err := l.AppendSync(Event{Actor: opts.Actor, Action: action, Subject: Subject{Kind: "audit-log", Path: path}, Input: in}); err != nil {
			l.Close()
			return nil, err
		}
	}
	return l, nil
}

// Append records ev. The record is written in order within the flush
// interval (or sooner under load) and at Close, but Append returns before
// it reaches the file. Append returns an error only when the event was not
// accepted: it is invalid (ErrInvalidEvent; an audit.unrecorded record
// takes its place, see ActionUnrecorded), the log is closed, or the
// backlog is full; a failure to write the file is reported by Healthy and
// retried.
func (l *Log) Append(ev Event) error {
	p, err := l.prepare(&ev)
	if err != nil {
		return l.appendUnrecorded(&ev, err, false)
	}
	l.mu.Lock()
	_, err = l.appendLocked(p)
	l.mu.Unlock()
	p.release()
	return err
}

// AppendSync records ev and returns once it is written and fsynced, so a
// decision recorded with AppendSync is on stable storage before it takes
// effect. Concurrent AppendSyncs share one fsync (group commit). On error
// the record may still reach the file later, when writing works again. An
// invalid event (ErrInvalidEvent) is not written: its audit.unrecorded
// record is, and fsynced, before AppendSync returns the error.
func (l *Log) AppendSync(ev Event) error {
	_, err := l.AppendSyncSeq(ev)
	return err
}

// AppendSyncSeq is AppendSync that also returns the seq ev was written
// under, so a later record can name it; -1 when ev was not written (an
// audit.unrecorded record took its place, or the log refused it).
func (l *Log) AppendSyncSeq(ev Event) (int64, error) {
	p, err := l.prepare(&ev)
	if err != nil {
		return -1, l.appendUnrecorded(&ev, err, true)
	}
	l.mu.Lock()
	seq, err := l.appendLocked(p)
	l.mu.Unlock()
	p.release()
	if err != nil {
		return -1, err
	}
	return seq, l.syncTo(seq)
}

// Healthy returns nil if the log can be written, or the last write failure.
// It also checks that the file at the path is still the one the Log writes
// (see ErrTampered): while it is not, Healthy fails until a new file holds
// an audit.tamper event. While unhealthy, each call (and each append)
// tries again, so the log recovers as soon as the file can be written.
func (l *Log) Healthy() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	if l.werr == nil {
		return l.watchLocked()
	}
	if len(l.buf) > 0 {
		l.writeLocked()
		return l.werr
	}
	if l.writeLocked() == nil {
		if err := l.f.Sync(); err != nil {
			l.failLocked(fmt.Errorf("syncing audit log: %w", err))
		} else {
			l.recoverLocked()
		}
	}
	return l.werr
}

// Close writes and fsyncs every record and closes the file. Appends after
// Close return ErrClosed.
func (l *Log) Close() error {
	l.close.Do(func() { close(l.stop) })
	<-l.done
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	err := l.writeLocked()
	if l.f != nil {
		if serr := l.f.Sync(); serr != nil && err == nil {
			err = fmt.Errorf("syncing audit log: %w", serr)
		}
		if cerr := l.f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing audit log: %w", cerr)
		}
		l.f = nil
	}
	if err == nil && len(l.buf) > 0 {
		err = fmt.Errorf("audit log: %d bytes could not be written", len(l.buf))
	}
	l.closeErr = err
	if l.lock != nil {
		l.lock.Close()
	}
	return err
}

// Path returns the path of the active file.
func (l *Log) Path() string { return l.path }

func (l *Log) flusher() {
	defer close(l.done)
	t := time.NewTicker(l.opts.FlushInterval / 2)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			l.mu.Lock()
			if len(l.buf) > 0 || l.werr != nil {
				l.writeLocked()
			} else if !l.closed {
				l.watchLocked()
			}
			l.mu.Unlock()
		}
	}
}

// appendLocked chains p to the log and buffers its line, returning its seq.
func (l *Log) appendLocked(p *prepared) (int64, error) {
	if l.closed {
		return 0, ErrClosed
	}
	if len(l.buf) >= maxPending {
		if l.writeLocked(); len(l.buf) >= maxPending {
			return 0, fmt.Errorf("%w: %v", ErrBacklog, l.werr)
		}
	}
	start := len(l.buf)
	seq := l.chainLocked(p)
	n := int64(len(l.buf) - start)
	if l.opts.MaxBytes > 0 && l.size > n && l.size > l.opts.MaxBytes && l.tamper == nil {
		// The new line starts the next file: rotate with everything
		// before it, then put it back.
		line := slices.Clone(l.buf[start:])
		l.buf = l.buf[:start]
		if err := l.rotateLocked(); err != nil {
			l.failLocked(err)
		}
		l.buf = append(l.buf, line...)
		l.size = n
	}
	if len(l.buf) >= flushThreshold || l.werr != nil {
		l.writeLocked()
	}
	return seq, nil
}

// chainLocked stamps p with the next seq, the time, the run id and the
// previous hash, and buffers its line.
func (l *Log) chainLocked(p *prepared) int64 {
	seq := l.next
	ts := l.stamp()
	l.scratch = p.appendHashed(l.scratch[:0], seq, ts, l.prev, l.opts.RunID)
	hash := hashHex(l.scratch)
	start := len(l.buf)
	l.buf = p.appendLine(l.buf, seq, ts, l.prev, l.opts.RunID, hash)
	l.size += int64(len(l.buf) - start)
	l.next++
	l.prev = hash
	return seq
}

// stamp returns the ts of a record appended now, made again only when
// the millisecond changed.
func (l *Log) stamp() string {
	t := l.opts.Now().UTC()
	if at := t.UnixMilli(); at != l.stampAt || l.stampText == "" {
		l.stampAt, l.stampText = at, t.Format(timeFormat)
	}
	return l.stampText
}

// writeLocked writes the buffered lines, reopening the file after a
// failure.
func (l *Log) writeLocked() error {
	if l.tamper != nil {
		return l.restartLocked()
	}
	if l.f == nil {
		if l.fi != nil {
			// The file is reopened by name: first make sure the name
			// still leads to it.
			if at, err := os.Lstat(l.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return l.failLocked(fmt.Errorf("opening audit log: %w", err))
			} else if err != nil || !os.SameFile(at, l.fi) {
				l.noticeLocked(&tamper{what: "replaced", detail: fmt.Sprintf("%s was removed or replaced while the log could not be written", l.path), expected: l.written, found: -1})
				return l.restartLocked()
			}
		}
		f, err := l.opts.openFile(l.path)
		if err != nil {
			return l.failLocked(fmt.Errorf("opening audit log: %w", err))
		}
		if t := l.setFileLocked(f); t != nil {
			l.noticeLocked(t)
			return l.restartLocked()
		}
	} else if err := l.watchLocked(); err != nil {
		return err
	}
	if err := l.writeOutLocked(); err != nil {
		return err
	}
	l.recoverLocked()
	return nil
}

// writeOutLocked writes the buffered lines to the open file.
func (l *Log) writeOutLocked() error {
	if len(l.buf) == 0 {
		return nil
	}
	n, err := l.f.Write(l.buf)
	l.written += int64(n)
	if n == len(l.buf) && len(l.unchecked) == 0 {
		// The usual case (every write follows a check): the buffer
		// written becomes the unchecked lines as it is, and the next
		// lines go to the other buffer, rather than a copy of every
		// byte written.
		l.unchecked, l.buf = l.buf, l.unchecked[:0]
	} else {
		l.unchecked = append(l.unchecked, l.buf[:n]...)
		l.buf = l.buf[:copy(l.buf, l.buf[n:])]
	}
	if err != nil {
		return l.failLocked(fmt.Errorf("writing audit log: %w", err))
	}
	return nil
}

// failLocked records a write failure. The file is closed so the next
// attempt reopens it.
func (l *Log) failLocked(err error) error {
	if l.werr == nil {
		l.log.Error("audit log: write failed; retrying on later appends", "file", l.path, "err", err)
	}
	l.werr = err
	if l.f != nil {
		l.f.Close()
		l.f = nil
		l.gen++
	}
	return err
}

func (l *Log) recoverLocked() {
	if l.werr != nil {
		l.log.Info("audit log: writing works again", "file", l.path)
		l.werr = nil
	}
}

// syncTo returns once the event with the given seq is on stable storage.
// Whoever holds syncMu writes and fsyncs everything appended so far, so
// the AppendSyncs that queued behind one fsync are covered by the next.
func (l *Log) syncTo(seq int64) error {
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	for attempt := 0; ; attempt++ {
		if l.synced >= seq {
			return nil
		}
		l.mu.Lock()
		if l.closed {
			err := l.closeErr
			l.mu.Unlock()
			// Close wrote and synced everything, or says why not.
			return err
		}
		err := l.writeLocked()
		f, gen, upto := l.f, l.gen, l.next-1
		l.mu.Unlock()
		if err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			l.mu.Lock()
			rotated := l.gen != gen
			if !rotated {
				l.failLocked(fmt.Errorf("syncing audit log: %w", err))
			}
			l.mu.Unlock()
			// A rotation closed f after syncing it: sync the new file.
			if rotated && attempt < 3 {
				continue
			}
			return fmt.Errorf("syncing audit log: %w", err)
		}
		// The lines are on disk, but in the file at the path only if
		// that is still the file: look again (group commit).
		l.mu.Lock()
		if l.gen == gen {
			if err := l.watchLocked(); err != nil {
				l.mu.Unlock()
				return err
			}
		}
		l.mu.Unlock()
		if l.synced < upto {
			l.synced = upto
		}
		return nil
	}
}

// RunID returns the run id written in every event of this Log.
func (l *Log) RunID() string { return l.opts.RunID }
