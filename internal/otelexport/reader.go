package otelexport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// maxLine is the longest line read from a log; a longer one is skipped
// (an audit log written by audit.Log has none).
const maxLine = 16 << 20

// logReader reads the events of an audit log and its rotated files
// (<path>.NNNNNN) in chain order, from a seq on, a bounded number at a
// time, remembering where it stopped.
type logReader struct {
	path string
	// next is the lowest seq not yet returned.
	next int64
	// skipped counts lines that were not audit events.
	skipped int

	f       *os.File
	fi      os.FileInfo
	active  bool  // f is the active file (path), not a rotated one
	rotN    int   // f's rotation number when it is not active
	off     int64 // bytes of f consumed
	doneRot int   // highest rotation number read to its end
}

// close releases the open file.
func (r *logReader) close() {
	if r.f != nil {
		r.f.Close()
		r.f = nil
	}
}

// read returns up to max events with seq >= r.next, in file order, and
// advances past them. It returns none when the log holds nothing newer.
func (r *logReader) read(max int) ([]audit.Entry, error) {
	var out []audit.Entry
	for len(out) < max {
		if r.f == nil {
			ok, err := r.openNext()
			if err != nil || !ok {
				return out, err
			}
		}
		n, eof, err := r.readFile(&out, max)
		r.off += n
		if err != nil {
			return out, err
		}
		if !eof {
			continue
		}
		if !r.active {
			r.doneRot = r.rotN
			r.close()
			continue
		}
		now, err := os.Stat(r.path)
		if err == nil && os.SameFile(now, r.fi) {
			if now.Size() < r.off {
				// Cut shorter than what was read: read it again,
				// still skipping what was already returned.
				r.off = 0
			}
			return out, nil
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return out, err
		}
		// Rotated (or removed): finish the old file, then list again.
		n, _, err = r.readFile(&out, max)
		r.off += n
		if err != nil {
			return out, err
		}
		r.close()
		if len(out) >= max {
			break
		}
	}
	return out, nil
}

// openNext opens the oldest rotated file not yet read, else the active
// file; false when there is none.
func (r *logReader) openNext() (bool, error) {
	rot, err := rotated(r.path)
	if err != nil {
		return false, err
	}
	for _, n := range rot {
		if n <= r.doneRot {
			continue
		}
		f, err := os.Open(fmt.Sprintf("%s.%06d", r.path, n))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return false, err
		}
		r.f, r.active, r.rotN, r.off = f, false, n, 0
		return true, nil
	}
	f, err := os.Open(r.path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return false, err
	}
	r.f, r.fi, r.active, r.off = f, fi, true, 0
	return true, nil
}

// readFile appends to out the events of f from r.off on, up to max in all.
// It returns the bytes consumed (complete lines only) and whether it
// reached the end of f.
func (r *logReader) readFile(out *[]audit.Entry, max int) (int64, bool, error) {
	if _, err := r.f.Seek(r.off, io.SeekStart); err != nil {
		return 0, false, err
	}
	br := bufio.NewReaderSize(r.f, 64<<10)
	var consumed int64
	var long []byte
	for len(*out) < max {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if len(long)+len(chunk) <= maxLine {
				long = append(long, chunk...)
			} else {
				long = long[:0:0]
				consumed += int64(len(chunk))
				r.skipped++
				// Discard to the end of the line.
				for err == bufio.ErrBufferFull {
					chunk, err = br.ReadSlice('\n')
					consumed += int64(len(chunk))
				}
				if err != nil {
					return consumed - int64(len(chunk)), errors.Is(err, io.EOF), nilEOF(err)
				}
				continue
			}
			continue
		}
		if err != nil {
			// A torn or unfinished last line stays for the next read.
			return consumed, errors.Is(err, io.EOF), nilEOF(err)
		}
		line := chunk
		if len(long) > 0 {
			line = append(long, chunk...)
			long = nil
		}
		consumed += int64(len(line))
		// Entry fields alias the line: parse a copy of the buffer.
		e, ok := audit.ParseEntry(slices.Clone(line[:len(line)-1]))
		if !ok {
			r.skipped++
			continue
		}
		if e.Seq < r.next {
			continue
		}
		e.File = r.f.Name()
		r.next = e.Seq + 1
		*out = append(*out, e)
	}
	return consumed, false, nil
}

func nilEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// rotated lists the rotation numbers of path's rotated files, oldest first.
func rotated(path string) ([]int, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("listing rotated audit logs: %w", err)
	}
	var out []int
	for _, e := range entries {
		suffix, ok := strings.CutPrefix(e.Name(), base+".")
		if !ok || len(suffix) < 6 {
			continue
		}
		n, err := strconv.Atoi(suffix)
		if err != nil || n <= 0 {
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}
