package otelexport

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
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
	// next is the lowest seq not yet returned; prev is the hash the next
	// event's prevHash must match, "" when not known (nothing read and no
	// cursor).
	next int64
	prev string
	// cursor is where the cursor file said to start; checked once the
	// log's event at cursor.Seq was found with the cursor's hash.
	cursor  Cursor
	checked bool
	// skipped counts lines that were not audit events.
	skipped int
	// anomalies are the lines that were skipped since the last call of
	// takeAnomalies.
	anomalies []anomaly

	f      *os.File
	fi     os.FileInfo
	active bool  // f is the active file (path), not a rotated one
	off    int64 // bytes of f consumed
	// done holds the closed files (rotated, moved aside) read to their end.
	done map[string]bool
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
			if r.done == nil {
				r.done = map[string]bool{}
			}
			r.done[r.f.Name()] = true
			r.close()
			continue
		}
		now, err := os.Stat(r.path)
		if err == nil && os.SameFile(now, r.fi) && !r.checked && r.cursor.Seq >= 0 {
			// The whole log was read and holds nothing at or after the
			// cursor: the cursor is ahead of the log (the log was cut,
			// or the cursor file was written by someone else). Send
			// the whole log again rather than skip what comes.
			r.anomaly(nil, fmt.Sprintf("the export cursor says seq %d was sent, but the log ends before it: sending the whole log again", r.cursor.Seq))
			r.checked, r.next, r.prev, r.done, r.off = true, 0, "", nil, 0
			r.close()
			continue
		}
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

// openNext opens the closed file (rotated, or moved aside by the log
// after tampering) not yet read with the lowest first seq, else the active
// file; false when there is none.
func (r *logReader) openNext() (bool, error) {
	closed, err := audit.ClosedFiles(r.path)
	if err != nil {
		return false, err
	}
	type cand struct {
		name  string
		first int64
	}
	var cands []cand
	for _, name := range closed {
		if !r.done[name] {
			cands = append(cands, cand{name, firstSeq(name)})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.first != b.first {
			return cmp.Compare(a.first, b.first)
		}
		return strings.Compare(a.name, b.name)
	})
	for _, c := range cands {
		f, err := os.Open(c.name)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return false, err
		}
		r.f, r.active, r.off = f, false, 0
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

// firstSeq is the seq of the first line of the file name, or the largest
// int64 when it cannot be read.
func firstSeq(name string) int64 {
	f, err := os.Open(name)
	if err != nil {
		return math.MaxInt64
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, maxLine), 64<<10).ReadBytes('\n')
	if err != nil {
		return math.MaxInt64
	}
	e, ok := audit.ParseEntry(line[:len(line)-1])
	if !ok {
		return math.MaxInt64
	}
	return e.Seq
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
				r.anomaly(nil, fmt.Sprintf("a line longer than %d bytes", maxLine))
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
		raw := slices.Clone(line[:len(line)-1])
		// Each line must be a whole, unaltered event (its hash matches
		// its content) that continues the chain: a line the agent
		// appended to the file is reported, never sent as the bridge's,
		// and cannot move the position past the real events.
		rec, err := new(audit.Checker).Check(raw)
		if err != nil {
			r.anomaly(raw, err.Error())
			continue
		}
		if !r.checked && r.cursor.Seq >= 0 && rec.Seq >= r.cursor.Seq {
			r.checked = true
			if rec.Seq == r.cursor.Seq && rec.Hash != r.cursor.Hash {
				// The cursor is not about this chain (or the log was
				// rewritten): send from there again rather than skip.
				r.anomaly(raw, fmt.Sprintf("the export cursor says seq %d has hash %s, the log has %s: sending from seq %d again", rec.Seq, r.cursor.Hash, rec.Hash, rec.Seq))
				r.next, r.prev = rec.Seq, ""
			}
		}
		if rec.Seq < r.next {
			continue
		}
		if r.prev != "" && (rec.Seq != r.next || rec.PrevHash != r.prev) {
			r.anomaly(raw, fmt.Sprintf("seq %d does not continue the chain at seq %d", rec.Seq, r.next))
			continue
		}
		e, ok := audit.ParseEntry(raw)
		if !ok {
			r.anomaly(raw, "not an audit event")
			continue
		}
		e.File = r.f.Name()
		r.next, r.prev = e.Seq+1, e.Hash
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
func rotated(path string) ([]int, error) { return audit.RotatedNumbers(path) }

// anomaly is a line of the log that was not sent: not an unaltered audit
// event, or not the next one of the chain.
type anomaly struct {
	file   string
	reason string
	sha256 string
	size   int
}

// maxAnomalies bounds the anomalies kept between two sends; more are
// counted in skipped only.
const maxAnomalies = 64

func (r *logReader) anomaly(line []byte, reason string) {
	r.skipped++
	if len(r.anomalies) >= maxAnomalies {
		return
	}
	sum := sha256.Sum256(line)
	if len(reason) > 200 {
		reason = reason[:200]
	}
	r.anomalies = append(r.anomalies, anomaly{file: r.f.Name(), reason: audit.Printable(reason), sha256: hex.EncodeToString(sum[:]), size: len(line)})
}

// takeAnomalies returns the anomalies found since the last call.
func (r *logReader) takeAnomalies() []anomaly {
	a := r.anomalies
	r.anomalies = nil
	return a
}
