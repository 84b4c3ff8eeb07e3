package compress

import (
	"bytes"
	"errors"
	"io"
	"os"
	"syscall"
)

// asArchive makes the spool's older segment file the whole archive whose
// heading is heading, and returns its path for the store to link (see
// Store.LinkArchive, then sealOlder): the heading is written over the
// room left for it at the segment's start, and the current segment and,
// if an agent chunk entry is open, the blank line that ends it are
// appended after the older segment's conversation. So a checkpoint copies
// the current segment only, not both. It reports false, and the archive
// is to be copied (WriteArchive), unless the older segment holds
// conversation, has room for exactly heading and is not already an
// archive; the conversation the segment holds is never changed, so a
// failure leaves the spool as it was.
func (s *spool) asArchive(heading []byte) (string, bool) {
	old := 1 - s.cur
	if s.err != nil || s.linked[old] || s.size[old] == 0 || s.skip[old] != int64(len(heading)) {
		return "", false
	}
	s.release()
	if s.err != nil {
		return "", false
	}
	f, err := openSegment(s.path(old), os.O_WRONLY, 0)
	if err != nil {
		return "", false
	}
	// A file with another name is not the spool's alone: a hard link
	// planted in the segment's place would be written through.
	if st, serr := f.Stat(); serr != nil || linkedElsewhere(st) {
		f.Close()
		return "", false
	}
	err = s.completeArchive(f, heading)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return s.path(old), err == nil
}

// completeArchive writes heading at the start of f, the older segment, and
// after its conversation the current segment and the open entry's end.
func (s *spool) completeArchive(f *os.File, heading []byte) error {
	old := 1 - s.cur
	end := s.skip[old] + s.size[old]
	if _, err := f.WriteAt(heading, 0); err != nil {
		return err
	}
	// What an earlier attempt appended goes first.
	if err := f.Truncate(end); err != nil {
		return err
	}
	n := s.size[s.cur]
	if n > 0 {
		cur, err := openSegment(s.path(s.cur), os.O_RDONLY, 0)
		if err != nil {
			return err
		}
		err = appendSegment(f, end, cur, s.skip[s.cur], n)
		cur.Close()
		if err != nil {
			return err
		}
	}
	if s.open != "" {
		if _, err := f.WriteAt([]byte("\n\n"), end+n); err != nil {
			return err
		}
	}
	return nil
}

// appendSegment writes the n bytes of src from offset from to dst at
// offset off: read and written past the page cache where both files take
// direct I/O (the spool wrote src so, and a copy through the page cache
// would read it back from the device into it), else copied through it
// (copy_file_range).
func appendSegment(dst *os.File, off int64, src *os.File, from, n int64) error {
	return copySegment(src, from, func() error {
		seg := newSegmentFile(dst, off, true)
		w := newPageWriter(seg, off, spoolDirectBytes, spoolBufferBytes)
		copied, err := readDirect(src, from, n, w.Write)
		if err == nil && copied != n {
			err = io.ErrUnexpectedEOF
		}
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
		if derr := seg.setDirect(false); err == nil {
			err = derr
		}
		return err
	}, func() error {
		if _, err := dst.Seek(off, io.SeekStart); err != nil {
			return err
		}
		copied, err := dst.ReadFrom(io.LimitReader(src, n))
		if err == nil && copied != n {
			err = io.ErrUnexpectedEOF
		}
		return err
	})
}

// readSegment writes the n bytes of src from offset from to w, or what
// src holds of them, read past the page cache where src's file system
// takes direct I/O (readDirect), else through it.
func readSegment(w io.Writer, src *os.File, from, n int64) error {
	return copySegment(src, from, func() error {
		_, err := readDirect(src, from, n, w.Write)
		return err
	}, func() error {
		_, err := io.Copy(w, io.LimitReader(src, n))
		return err
	})
}

// copySegment copies a segment of src that starts at offset from, as
// direct does with src set for direct I/O (readDirect) where its file
// system takes it. Where it does not, or where direct's first read is
// refused (errNoDirectRead), src is set back and positioned at from,
// and buffered copies the segment through the page cache.
func copySegment(src *os.File, from int64, direct, buffered func() error) error {
	if setDirectIO(src, true) == nil {
		err := direct()
		if !errors.Is(err, errNoDirectRead) {
			return err
		}
		if err := setDirectIO(src, false); err != nil {
			return err
		}
	}
	if _, err := src.Seek(from, io.SeekStart); err != nil {
		return err
	}
	return buffered()
}

// errNoDirectRead is readDirect's failure before it read anything: the
// file system refused the read.
var errNoDirectRead = errors.New("direct read refused")

// readDirect passes the n bytes of src from offset from to write, or what
// src holds of them, and returns how many it passed: read with direct I/O
// (src's O_DIRECT set) in blocks of spoolDirectBytes at offsets that are
// multiples of the page size.
func readDirect(src *os.File, from, n int64, write func([]byte) (int, error)) (int64, error) {
	buf := alignedBuffer(spoolDirectBytes)[:spoolDirectBytes]
	pos := from &^ (spoolPageBytes - 1)
	var passed int64
	for n > 0 {
		m, err := src.ReadAt(buf, pos)
		if pos == from&^(spoolPageBytes-1) && errors.Is(err, syscall.EINVAL) {
			return 0, errNoDirectRead
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return passed, err
		}
		skip := max(from-pos, 0)
		if int64(m) > skip {
			part := buf[skip:m]
			if int64(len(part)) > n {
				part = part[:n]
			}
			if _, werr := write(part); werr != nil {
				return passed, werr
			}
			n -= int64(len(part))
			passed += int64(len(part))
		}
		if err != nil || m < len(buf) {
			return passed, nil // the end of src
		}
		pos += int64(m)
	}
	return passed, nil
}

// sealOlder notes that the older segment's file is now an archive too: the
// spool never writes it again, and a rotation that empties the segment
// starts a new file (rotate).
func (s *spool) sealOlder() { s.linked[1-s.cur] = true }

// headingLength returns the length of the archive heading the file at
// path starts with (one a spool wrote: see Recorder.appendArchiveHeading),
// or 0 if it starts with none.
func headingLength(path string) int64 {
	f, err := openSegment(path, os.O_RDONLY, 0)
	if err != nil {
		return 0
	}
	defer f.Close()
	var buf [8 << 10]byte
	n, _ := io.ReadFull(f, buf[:])
	b := buf[:n]
	const title, end = "# Conversation archive: session ", ". Content offloaded to the cache appears as its reference.\n\n"
	i := bytes.Index(b, []byte(end))
	if !bytes.HasPrefix(b, []byte(title)) || i < 0 {
		return 0
	}
	i += len(end)
	// The bytes of earlier conversation left out, if said.
	if rest := b[i:]; bytes.HasPrefix(rest, []byte("*")) {
		if j := bytes.Index(rest, []byte(" bytes of earlier conversation were not retained.*\n\n")); j > 0 {
			i += j + len(" bytes of earlier conversation were not retained.*\n\n")
		}
	}
	return int64(i)
}
