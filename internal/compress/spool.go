package compress

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// SpoolSegmentBytes is the size of each of the two files a session's
// conversation archive is spooled to (see spool): the archive holds
// between one and two segments of the most recent conversation.
const SpoolSegmentBytes = 64 << 20

// spoolSegment is SpoolSegmentBytes; tests lower it.
var spoolSegment int64 = SpoolSegmentBytes

// spoolBufferBytes is the write buffer a spool holds while a turn runs
// where the segment's file system takes no direct I/O (else it is
// spoolDirectBytes); it is released at the end of each turn. Writes go
// to the page cache in blocks of this size at offsets that are multiples
// of it (pageWriter): 16 KiB blocks at 16 KiB offsets. Larger blocks let
// the page cache take larger folios, which cost more than they save on a
// virtual machine (in acp-soak's bridge, the kernel's copy into 64 KiB
// blocks took three times the CPU of the copy into 16 KiB ones).
const spoolBufferBytes = 16 << 10

// spool keeps a session's conversation archive on disk as it is recorded,
// so memory holds only a write buffer whatever the session's length. It
// writes to two segments, base+".0" and base+".1", each at most
// SpoolSegmentBytes: when the current one is full the other is emptied and
// takes over. A spool is not safe for concurrent use.
type spool struct {
	base    string
	cur     int
	size    [2]int64
	f       *os.File
	w       *pageWriter
	dropped int64        // bytes lost with emptied segments
	open    string       // role of the agent chunk entry being written, "" if none
	err     error        // first failure; later writes are dropped
	guard   headingGuard // keeps an entry's text from starting a heading
	escaped []byte       // scratch for text the guard escapes

	// heading returns the heading of an archive that leaves out dropped
	// bytes, with a placeholder time, or nil for none. A segment the spool
	// creates starts with the heading an archive written while the
	// segment is the older one has, so that the segment can become that
	// archive (asArchive). skip holds the bytes at each segment's start
	// that are not conversation (the heading's, or none); size counts the
	// rest.
	heading func(dropped int64) []byte
	skip    [2]int64
	started bool    // segment 0 was opened once
	linked  [2]bool // the segment is an archive too: never written again
	paged   bool    // the file system refused direct I/O: segments are written through the page cache
}

func newSpool(base string) *spool { return &spool{base: base} }

func (s *spool) path(i int) string { return fmt.Sprintf("%s.%d", s.base, i) }

// write appends text to the current segment, switching segments when it is
// full.
func (s *spool) write(text string) {
	if text == "" || !s.ready() {
		return
	}
	if strings.IndexByte(text, '#') >= 0 {
		s.writeGuarded([]byte(text))
		return
	}
	s.guard.track([]byte(text))
	s.wrote(s.w.WriteString(text))
}

// writeGuarded writes an entry's text, ready, with each '#' that would
// start a heading escaped (headingGuard).
func (s *spool) writeGuarded(text []byte) {
	if !s.guard.needsEscape(text) {
		s.guard.track(text)
		s.wrote(s.w.Write(text))
		return
	}
	s.escaped = s.guard.appendText(s.escaped[:0], text)
	s.wrote(s.w.Write(s.escaped))
}

// ready readies the current segment for a write, switching segments when
// it is full; it reports false once the spool has failed.
func (s *spool) ready() bool {
	if s.err != nil {
		return false
	}
	if s.size[s.cur] >= spoolSegment {
		s.rotate()
	}
	return s.w != nil || s.openCurrent(os.O_APPEND)
}

// wrote counts the n bytes a write put in the current segment and keeps
// its error as the spool's failure.
func (s *spool) wrote(n int, err error) {
	s.size[s.cur] += int64(n)
	if err != nil {
		s.fail(err)
	}
}

// openCurrent opens the current segment with flag: O_APPEND to go on
// after what it holds, O_TRUNC to empty it.
func (s *spool) openCurrent(flag int) bool {
	if err := ownDirs(filepath.Dir(filepath.Dir(s.base)), filepath.Dir(s.base)); err != nil {
		s.fail(err)
		return false
	}
	// O_TRUNC waits until the file is known to have no other name: it
	// would empty an archive made of the segment, or a file linked there.
	// Not O_APPEND: the segment is written at the offsets its writer
	// keeps (segmentFile).
	f, err := openSegment(s.path(s.cur), os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		s.fail(err)
		return false
	}
	st, err := f.Stat()
	if err == nil && !linkedElsewhere(st) && flag&os.O_TRUNC != 0 {
		if err = f.Truncate(0); err != nil {
			f.Close()
			s.fail(err)
			return false
		}
		st, err = f.Stat()
	}
	if err == nil && linkedElsewhere(st) {
		// An archive made of the segment by a bridge that was killed
		// before it could delete the spool: written to, the archive
		// would change. The spool goes on in a copy.
		f.Close()
		if f, err = s.unshare(flag); err != nil {
			s.fail(err)
			return false
		}
		st, err = f.Stat()
	}
	if err == nil && st.Size() == 0 && (flag == os.O_TRUNC || !s.started) && s.heading != nil {
		// A segment created afresh: the heading goes first. It is the
		// older one once the other is emptied and takes over, when the
		// archive leaves out what the other holds now too.
		head := s.heading(s.dropped + s.size[1-s.cur])
		if _, err := f.Write(head); err != nil {
			f.Close()
			s.fail(err)
			return false
		}
		s.size[s.cur], s.skip[s.cur] = 0, int64(len(head))
	} else if err == nil {
		if !s.started {
			// Left by an earlier bridge: the spool goes on from the
			// conversation it holds, after its heading.
			s.skip[s.cur] = headingLength(s.path(s.cur))
		}
		s.size[s.cur] = st.Size() - s.skip[s.cur]
	}
	s.started = true
	off := s.skip[s.cur] + s.size[s.cur]
	seg := newSegmentFile(f, off, !s.paged)
	s.f, s.w = f, newPageWriter(seg, off, seg.bufferBytes(), spoolBufferBytes)
	return true
}

// unshare replaces the current segment's file, which has another name,
// by a copy of it, and opens the copy with flag.
func (s *spool) unshare(flag int) (*os.File, error) {
	p := s.path(s.cur)
	src, err := openSegment(p, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	// A new file, whatever lies at the name: a link planted there is
	// neither written through nor renamed into the segment's place.
	os.Remove(p + ".copy")
	tmp, err := os.OpenFile(p+".copy", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(tmp, src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p+".copy", p)
	}
	if err != nil {
		os.Remove(p + ".copy")
		return nil, err
	}
	return openSegment(p, os.O_WRONLY|(flag&os.O_TRUNC), 0o600)
}

// rotate empties the other segment and makes it current.
func (s *spool) rotate() {
	s.release()
	s.cur = 1 - s.cur
	s.dropped += s.size[s.cur]
	s.size[s.cur], s.skip[s.cur] = 0, 0
	if s.linked[s.cur] {
		// The segment is an archive's file too: it stays as that, and the
		// spool starts a new file.
		s.linked[s.cur] = false
		if err := os.Remove(s.path(s.cur)); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.fail(err)
			return
		}
	}
	s.openCurrent(os.O_TRUNC)
}

func (s *spool) fail(err error) {
	if s.err == nil {
		s.err = fmt.Errorf("spooling the conversation archive: %v", err)
	}
	s.release()
}

// release flushes and closes the current segment, freeing the buffer and
// the descriptor until the next write.
func (s *spool) release() {
	if s.w == nil {
		return
	}
	err := s.w.Flush()
	if seg, ok := s.w.f.(*segmentFile); ok && !seg.direct {
		s.paged = true
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	s.f, s.w = nil, nil
	if err != nil && s.err == nil {
		s.err = fmt.Errorf("spooling the conversation archive: %v", err)
	}
}

func entryHeader(role string, at time.Time) string {
	return string(appendEntryHeader(nil, role, at))
}

// appendEntryHeader appends the heading of an archive entry to dst.
func appendEntryHeader(dst []byte, role string, at time.Time) []byte {
	dst = append(dst, "### "...)
	dst = append(dst, role...)
	dst = append(dst, " · "...)
	dst = appendClock(dst, at)
	return append(dst, "\n\n"...)
}

// appendClock appends at's UTC time of day as at.UTC().AppendFormat(dst,
// "15:04:05") does, without parsing the layout for every entry.
func appendClock(dst []byte, at time.Time) []byte {
	h, m, s := at.UTC().Clock()
	return append(dst, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
}

// writeBytes appends text.
func (s *spool) writeBytes(text []byte) {
	if len(text) == 0 || !s.ready() {
		return
	}
	s.writeGuarded(text)
}

// writeLiteral appends the text of the JSON string literal lit, decoded
// straight into the write buffer.
func (s *spool) writeLiteral(lit []byte) {
	if len(lit) <= 2 || !s.ready() {
		return
	}
	buf := appendUnquoted(s.w.AvailableBuffer(), lit)
	s.writeGuarded(buf)
}

// entry writes a whole archive entry.
func (s *spool) entry(at time.Time, role, text string) {
	s.closeChunk()
	s.writeHeader(at, role)
	s.write(text)
	s.write("\n\n")
}

// entryBytes is entry for text held in bytes.
func (s *spool) entryBytes(at time.Time, role string, text []byte) {
	s.closeChunk()
	s.writeHeader(at, role)
	s.writeBytes(text)
	s.write("\n\n")
}

// writeHeader writes an entry's heading, formatted into the write buffer.
func (s *spool) writeHeader(at time.Time, role string) {
	if !s.ready() {
		return
	}
	s.wrote(s.w.Write(appendEntryHeader(s.w.AvailableBuffer(), role, at)))
	s.guard.lineStart()
}

// chunkLiteral writes agent output given as a JSON string literal:
// consecutive chunks of one role form one entry.
func (s *spool) chunkLiteral(at time.Time, role string, lit []byte) {
	s.openChunk(at, role)
	s.writeLiteral(lit)
}

// chunk is chunkLiteral for output already decoded.
func (s *spool) chunk(at time.Time, role string, text []byte) {
	s.openChunk(at, role)
	s.writeBytes(text)
}

// openChunk starts an entry for role's chunks unless one is open.
func (s *spool) openChunk(at time.Time, role string) {
	if s.open != role {
		s.closeChunk()
		s.writeHeader(at, role)
		s.open = role
	}
}

func (s *spool) closeChunk() {
	if s.open != "" {
		s.open = ""
		s.write("\n\n")
	}
}

// copyTo writes the spooled archive, older segment first, to w.
func (s *spool) copyTo(w io.Writer) error {
	s.release()
	for _, i := range []int{1 - s.cur, s.cur} {
		if s.size[i] == 0 {
			continue
		}
		f, err := openSegment(s.path(i), os.O_RDONLY, 0)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("reading the spooled archive: %v", err)
		}
		err = readSegment(w, f, s.skip[i], s.size[i])
		f.Close()
		if err != nil {
			return fmt.Errorf("reading the spooled archive: %v", err)
		}
	}
	if s.open != "" {
		_, err := io.WriteString(w, "\n\n")
		return err
	}
	return nil
}

// remove releases the spool and deletes its segments: once the bridge
// stops, nothing can archive them any more (the pipeline's state is not
// persisted), and keeping them would grow the cache by up to two segments
// for every session ever run.
func (s *spool) remove() error {
	s.release()
	var first error
	for i := range 2 {
		if err := os.Remove(s.path(i)); err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = err
		}
	}
	s.size, s.skip, s.linked, s.started = [2]int64{}, [2]int64{}, [2]bool{}, false
	return first
}
