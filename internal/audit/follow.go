package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// FollowInterval is how often Follow looks for new lines.
const FollowInterval = 100 * time.Millisecond

// Follow calls fn for every complete line appended to path from offset on,
// until ctx is done, like tail -f. When the log rotates, it reads the
// rotated files it has not finished (in their numbered order) before the
// new file, so no event is skipped however fast the log rotates; events
// are passed on once, in seq order. It returns nil when ctx is done.
func Follow(ctx context.Context, path string, offset int64, fn func(Entry)) error {
	var f *os.File
	var fi os.FileInfo
	line := 0
	fw := &follower{path: path, fn: fn, next: -1}
	emit := func(e Entry) {
		line = e.Line
		fw.emit(e)
	}
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	read := func() error {
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			return err
		}
		n, err := readEntries(f, path, line, emit)
		offset += n
		return err
	}
	for {
		if f == nil {
			var err error
			f, err = os.Open(path)
			switch {
			case errors.Is(err, os.ErrNotExist):
				f = nil
			case err != nil:
				return err
			default:
				if fi, err = f.Stat(); err != nil {
					return err
				}
				if line, err = countLines(f, offset); err != nil {
					return err
				}
			}
		}
		if f != nil {
			if err := read(); err != nil {
				return err
			}
			now, err := os.Stat(path)
			switch {
			case err != nil:
				// Between a rename and the new file: wait.
			case os.SameFile(now, fi) && now.Size() < offset:
				// Cut shorter than what was read: start over.
				offset, line, fw.next = 0, 0, -1
			case !os.SameFile(now, fi):
				// Rotated: finish this file, then every rotated file
				// after it, then the new active file.
				if err := read(); err != nil {
					return err
				}
				if err := followRotated(path, fi, emit); err != nil {
					return err
				}
				f.Close()
				f, offset = nil, 0
				continue
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(FollowInterval):
		}
	}
}

// followRotated reads the rotated files of path that come after the one
// that is done (all of them when done is not among them).
func followRotated(path string, done os.FileInfo, emit func(Entry)) error {
	rot, err := rotatedFiles(path)
	if err != nil {
		return err
	}
	start := 0
	for i, r := range rot {
		if fi, err := os.Stat(r.name); err == nil && os.SameFile(fi, done) {
			start = i + 1
		}
	}
	for _, r := range rot[start:] {
		f, err := os.Open(r.name)
		if err != nil {
			return err
		}
		_, err = readEntries(f, r.name, 0, emit)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// follower passes events on once each, in seq order, checking the chain
// as it goes (see emit).
type follower struct {
	path       string
	fn         func(Entry)
	next       int64 // lowest seq not yet passed on; -1 before the first
	catchingUp bool
	chain      Checker          // the chain of the events passed on
	recent     map[int64]string // seq -> hash of the events passed on lately
}

// recentEvents is how many of the events passed on last the follower
// remembers, to tell a line read again from a rotated file from another
// line with the same seq.
const recentEvents = 1024

// emit passes e on unless it was already. When events are missing before
// e, the file that held them was rotated away between two looks (two
// rotations in one interval, or one while the rotated files were being
// listed): they are passed on from the rotated files first.
//
// The line's seq is the writer's claim, and another process may have
// appended the line: only a line that continues the chain of those passed
// on (Checker) moves the follower on. A line that does not (its hash is
// wrong, or its seq or prevHash do not follow) is passed on with
// Unchained saying why and leaves the follower where it was, so that a
// line claiming a seq far ahead cannot hide the bridge's own lines after
// it. A line at a seq already passed on with another hash is passed on too
// (the chain forks there: the bridge writes its next event after a line
// another process appended, see Guarantees), and when it chains onto the
// event before it, the chain goes on from it.
func (fw *follower) emit(e Entry) {
	fork := false
	if e.Seq < fw.next {
		h, ok := fw.recent[e.Seq]
		if !ok || h == e.Hash {
			return // passed on already (or read again from a rotated file)
		}
		fork = true
	}
	if e.Seq > fw.next && fw.next >= 0 && !fw.catchingUp {
		fw.catchingUp = true
		catchUpRotated(fw.path, fw.emit)
		fw.catchingUp = false
		if e.Seq < fw.next {
			return // the catch-up passed it on
		}
	}
	if fw.recent == nil {
		fw.recent = make(map[int64]string)
	}
	if _, err := fw.chain.Check(e.Raw); err != nil {
		_, lerr := checkLine(e.Raw)
		if lerr != nil || e.PrevHash == "" || fw.recent[e.Seq-1] != e.PrevHash {
			e.Unchained = Printable("the line above does not continue the chain: " + err.Error())
			fw.fn(e)
			return
		}
		// It follows an event passed on: the chain goes on from it.
		fw.chain.next, fw.chain.prev = e.Seq+1, e.Hash
		if fork {
			e.Unchained = fmt.Sprintf("the line above does not continue the chain: seq %d was passed on before with another hash: the chain forks here (another process wrote to the log)", e.Seq)
		}
	}
	fw.next = e.Seq + 1
	fw.recent[e.Seq] = e.Hash
	delete(fw.recent, e.Seq-recentEvents)
	fw.fn(e)
}

// catchUpRotated passes every event of the rotated files of path to emit,
// oldest file first; emit keeps those not yet passed on. It ignores files
// it cannot read: the events are then missing, as they would be anyway.
func catchUpRotated(path string, emit func(Entry)) {
	rot, err := rotatedFiles(path)
	if err != nil {
		return
	}
	for _, r := range rot {
		f, err := os.Open(r.name)
		if err != nil {
			continue
		}
		readEntries(f, r.name, 0, emit)
		f.Close()
	}
}

// countLines counts the newlines in the first upto bytes of f.
func countLines(f *os.File, upto int64) (int, error) {
	if upto == 0 {
		return 0, nil
	}
	data := make([]byte, upto)
	if _, err := f.ReadAt(data, 0); err != nil {
		return 0, err
	}
	return bytes.Count(data, []byte("\n")), nil
}

// TailOffset returns the offset where the last n complete lines of path
// start, for Follow to show them first.
func TailOffset(path string, n int) (int64, error) {
	// Only a regular file has an end to count back from (not /dev/zero,
	// not a pipe).
	if fi, err := os.Stat(path); err != nil {
		return 0, err
	} else if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file: tail reads and follows a log file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	idx := bytes.LastIndexByte(data, '\n') + 1
	for k := 0; k < n && idx > 0; k++ {
		idx = bytes.LastIndexByte(data[:idx-1], '\n') + 1
	}
	return int64(idx), nil
}
