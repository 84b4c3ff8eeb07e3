package audit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
)

// The agent the bridge watches runs as the same user and can reach the live
// log file: it can unlink it (later records then go to an inode no one can
// open), rename it away, put another file in its place, or cut it short.
// The hash chain shows all of that to "audit verify" afterwards, but while
// the bridge runs, decisions would be recorded in a file nobody will read.
// So the Log compares the file it has open with what is at its path before
// every write, after every group-commit fsync, on every Healthy call and
// every flush tick (so within 100 ms while idle): same device and inode,
// and exactly the size it wrote. When they differ the log is tampered:
// Healthy and AppendSync fail (governance refuses while the log is down),
// and the Log starts a new file at the path, moving aside whatever is there
// (as <path>.tampered-<time>), continuing the chain, and records what it
// found in an "audit.tamper" event, fsynced, before it counts as healthy
// again.
//
// Limits: a change that keeps the inode and the size (an in-place edit of
// old lines) is not seen live; "audit verify" finds it. An agent that
// outlives the bridge, or acts between two checks and covers its tracks,
// can rewrite the whole file with a recomputed chain: only a copy of the
// chain's head kept off the machine shows that.

// ErrTampered is wrapped by Healthy and append errors while the live log
// file was found unlinked, moved, replaced, truncated or written by
// another process, until the Log has started a new file and recorded what
// it found.
var ErrTampered = errors.New("the audit log file was tampered with")

// tamper describes what the check found.
type tamper struct {
	what     string // unlinked, moved, replaced, truncated, appended, unreadable
	detail   string // one sentence for people
	expected int64  // bytes the Log wrote to the file
	found    int64  // bytes the file has, or -1
	lost     bool   // the old file is gone: lines not yet checked are written again
}

func (t *tamper) Error() string { return fmt.Sprintf("%v: %s", ErrTampered, t.detail) }
func (t *tamper) Unwrap() error { return ErrTampered }

// setFileLocked makes f the active file, remembering its identity and
// size. When the Log had a file before at the same path (reopening after a
// failure), a different file or size there is tampering.
func (l *Log) setFileLocked(f file) *tamper {
	l.f = f
	l.gen++
	fi, err := f.Stat()
	if err != nil {
		// Cannot tell: leave the identity as it was, the next check
		// sees it.
		return nil
	}
	prev, written := l.fi, l.written
	l.fi, l.written = fi, fi.Size()
	if prev == nil {
		return nil
	}
	switch {
	case !os.SameFile(prev, fi):
		return &tamper{what: "replaced", detail: fmt.Sprintf("%s was replaced by another file while the log could not be written", l.path), expected: written, found: fi.Size()}
	case fi.Size() != written:
		return sizeTamper(l.path, written, fi.Size())
	}
	return nil
}

// checkFileLocked compares the open file with what is at the path.
func (l *Log) checkFileLocked() *tamper {
	if l.f == nil || l.fi == nil {
		return nil
	}
	open, err := l.f.Stat()
	if err != nil {
		return nil // a failing file: writes report it
	}
	at, err := os.Lstat(l.path)
	gone := nowaitopen.LinkCount(open) == 0
	switch {
	case errors.Is(err, fs.ErrNotExist) && gone:
		return &tamper{what: "unlinked", detail: fmt.Sprintf("%s was deleted while the bridge was writing it", l.path), expected: l.written, found: -1, lost: true}
	case errors.Is(err, fs.ErrNotExist):
		return &tamper{what: "moved", detail: fmt.Sprintf("%s was renamed or moved away while the bridge was writing it", l.path), expected: l.written, found: -1}
	case err != nil:
		return &tamper{what: "unreadable", detail: fmt.Sprintf("%s cannot be checked: %v", l.path, err), expected: l.written, found: -1}
	case !os.SameFile(open, at):
		t := &tamper{what: "replaced", detail: fmt.Sprintf("%s was replaced by another file while the bridge was writing it", l.path), expected: l.written, found: at.Size(), lost: gone}
		if gone {
			t.detail = fmt.Sprintf("%s was deleted and replaced by another file while the bridge was writing it", l.path)
		}
		return t
	case open.Size() != l.written:
		return sizeTamper(l.path, l.written, open.Size())
	}
	return nil
}

func sizeTamper(path string, expected, found int64) *tamper {
	if found < expected {
		return &tamper{what: "truncated", detail: fmt.Sprintf("%s was cut from %d to %d bytes by another process", path, expected, found), expected: expected, found: found}
	}
	return &tamper{what: "appended", detail: fmt.Sprintf("%s grew from %d to %d bytes: another process wrote to it", path, expected, found), expected: expected, found: found}
}

// watchLocked checks the file and, when it was tampered with, starts a new
// one; it returns the error that keeps the log failed, or nil.
func (l *Log) watchLocked() error {
	if l.tamper == nil {
		t := l.checkFileLocked()
		if t == nil {
			l.unchecked = l.unchecked[:0]
			return nil
		}
		l.noticeLocked(t)
	}
	return l.restartLocked()
}

// noticeLocked records that t was found: the log fails until a new file
// holds the audit.tamper event.
func (l *Log) noticeLocked(t *tamper) {
	l.log.Error("audit log: the file was tampered with; starting a new file", "file", l.path, "found", t.what, "detail", t.detail)
	if t.lost && len(l.unchecked) > 0 {
		// Lines written since the last check went to a file that no
		// longer exists: write them again, in order, before the rest.
		l.buf = append(l.unchecked, l.buf...)
		l.unchecked = nil
	}
	l.tamper = t
	l.werr = t
	if l.f != nil {
		l.f.Close()
		l.f = nil
		l.gen++
	}
}

// restartLocked moves aside whatever is at the path, creates a new file
// there, and writes and fsyncs the buffered lines followed by the
// audit.tamper event.
func (l *Log) restartLocked() error {
	t := l.tamper
	if l.f == nil {
		aside := ""
		if _, err := os.Lstat(l.path); err == nil {
			aside = fmt.Sprintf("%s%s%s", l.path, tamperedInfix, time.Now().UTC().Format("20060102T150405.000000000Z"))
			if err := os.Rename(l.path, aside); err != nil {
				return l.stillDownLocked(fmt.Errorf("moving aside the file found at %s: %v", l.path, err))
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return l.stillDownLocked(fmt.Errorf("checking %s: %v", l.path, err))
		}
		f, err := nowaitopen.File(l.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
		if err != nil {
			return l.stillDownLocked(fmt.Errorf("starting a new audit log file: %v", err))
		}
		l.fi = nil
		l.setFileLocked(f)
		l.size = int64(len(l.buf))
		syncDir(l.path)
		if !l.tamperChained {
			if err := l.chainTamperLocked(t, aside); err != nil {
				return l.stillDownLocked(err)
			}
		}
	}
	if err := l.writeOutLocked(); err != nil {
		return l.stillDownLocked(err)
	}
	if err := l.f.Sync(); err != nil {
		return l.stillDownLocked(fmt.Errorf("syncing the new audit log file: %v", err))
	}
	l.tamper, l.tamperChained = nil, false
	l.unchecked = l.unchecked[:0]
	l.werr = nil
	l.log.Warn("audit log: new file started after tampering; the chain continues", "file", l.path, "found", t.what)
	return nil
}

// stillDownLocked keeps the log failed after a step of restarting failed.
func (l *Log) stillDownLocked(err error) error {
	l.werr = fmt.Errorf("%w (%v)", l.tamper, err)
	if l.f != nil && !l.tamperChained {
		l.f.Close()
		l.f = nil
		l.gen++
	}
	return l.werr
}

// chainTamperLocked appends the audit.tamper event to the buffer.
func (l *Log) chainTamperLocked(t *tamper, aside string) error {
	in := map[string]any{
		"found":         t.what,
		"detail":        t.detail,
		"file":          l.path,
		"expectedBytes": t.expected,
		// The buffered lines are written to the new file first.
		"firstSeqInNewFile": l.next - int64(bytes.Count(l.buf, []byte{'\n'})),
	}
	if t.found >= 0 {
		in["foundBytes"] = t.found
	}
	if aside != "" {
		in["movedAsideTo"] = aside
	}
	if t.lost {
		in["rewritten"] = "lines not yet checked in the deleted file were written again to the new file"
	}
	p, err := l.prepare(&Event{Actor: l.opts.Actor, Action: "audit.tamper", Subject: Subject{Kind: "audit-log", Path: l.path}, Input: in})
	if err != nil {
		return err
	}
	l.chainLocked(p)
	l.tamperChained = true
	return nil
}
