package compress

import (
	"errors"
	"os"
	"syscall"
	"unsafe"
)

// spoolDirectBytes is the spool's write buffer where the segment's file
// system takes direct I/O (segmentFile): each full buffer is one write
// past the page cache. A write there costs the bridge a fixed tens of
// microseconds whatever its length, and no copy into the page cache,
// which costs it about as much for every 100 KiB: larger blocks cost
// less, and hold more of a turn that a kill would lose.
const spoolDirectBytes = 1 << 20

// segmentFile writes a spool segment at explicit offsets, where its
// pageWriter says: a write that starts at a multiple of spoolPageBytes of
// the file, from memory that does too, goes past the page cache (the
// file's O_DIRECT flag) in its whole pages where the file system allows
// it, and the rest, a flush's last page, through the page cache. The spool
// writes most of a session's conversation and reads it back rarely (a
// checkpoint, /bridge-recover), so the copy into the page cache is what
// its writes cost; the bytes in the file are the same either way.
// A segmentFile is not safe for concurrent use.
type segmentFile struct {
	f      *os.File
	off    int64 // the offset the next write lands at
	direct bool  // whole pages may go past the page cache
	set    bool  // O_DIRECT is set on f now
	passed int64 // bytes written past the page cache
}

// newSegmentFile returns a segmentFile writing to f from offset off, with
// direct I/O if direct is set and f's file system takes the flag.
func newSegmentFile(f *os.File, off int64, direct bool) *segmentFile {
	s := &segmentFile{f: f, off: off}
	s.direct = direct && s.setDirect(true) == nil
	return s
}

// bufferBytes returns the size of the write buffer to give s's pageWriter.
func (s *segmentFile) bufferBytes() int {
	if s.direct {
		return spoolDirectBytes
	}
	return spoolBufferBytes
}

// Write writes p at s's offset.
func (s *segmentFile) Write(p []byte) (int, error) {
	n := 0
	if whole := len(p) &^ (spoolPageBytes - 1); s.direct && whole > 0 && s.off%spoolPageBytes == 0 && pageAligned(p) {
		var err error
		if err = s.setDirect(true); err == nil {
			n, err = s.f.WriteAt(p[:whole], s.off)
			s.off += int64(n)
			s.passed += int64(n)
		}
		if errors.Is(err, syscall.EINVAL) {
			// The file system refused this write (or the flag) after
			// all: it and every later one go through the page cache.
			s.direct = false
		} else if err != nil {
			return n, err
		}
	}
	if n == len(p) {
		return n, nil
	}
	if s.set {
		if err := s.setDirect(false); err != nil {
			return n, err
		}
	}
	m, err := s.f.WriteAt(p[n:], s.off)
	s.off += int64(m)
	return n + m, err
}

// setDirect sets or clears O_DIRECT on s's file.
func (s *segmentFile) setDirect(on bool) error {
	if s.set == on {
		return nil
	}
	if err := setDirectIO(s.f, on); err != nil {
		return err
	}
	s.set = on
	return nil
}

// pageAligned reports whether p's memory starts at a multiple of
// spoolPageBytes.
func pageAligned(p []byte) bool {
	return uintptr(unsafe.Pointer(unsafe.SliceData(p)))%spoolPageBytes == 0
}
