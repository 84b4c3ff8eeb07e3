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

// follower passes events on once each, in seq order.
type follower struct {
	path       string
	fn         func(Entry)
	next       int64 // lowest seq not yet passed on; -1 before the first
	catchingUp bool
}

// emit passes e on unless it was already. When events are missing before
// e, the file that held them was rotated away between two looks (two
// rotations in one interval, or one while the rotated files were being
// listed): they are passed on from the rotated files first.
func (fw *follower) emit(e Entry) {
	if e.Seq > fw.next && fw.next >= 0 && !fw.catchingUp {
		fw.catchingUp = true
		catchUpRotated(fw.path, fw.emit)
		fw.catchingUp = false
	}
	if e.Seq >= fw.next {
		fw.next = e.Seq + 1
		fw.fn(e)
	}
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
