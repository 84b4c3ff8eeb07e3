package compress

import (
	"bytes"
	"io"
	"os"
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
	f, err := os.OpenFile(s.path(old), os.O_WRONLY|noFollow, 0)
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
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		return err
	}
	if n := s.size[s.cur]; n > 0 {
		cur, err := os.Open(s.path(s.cur))
		if err != nil {
			return err
		}
		if _, err = cur.Seek(s.skip[s.cur], io.SeekStart); err == nil {
			var copied int64
			copied, err = f.ReadFrom(io.LimitReader(cur, n))
			if err == nil && copied != n {
				err = io.ErrUnexpectedEOF
			}
		}
		cur.Close()
		if err != nil {
			return err
		}
	}
	if s.open != "" {
		if _, err := f.WriteString("\n\n"); err != nil {
			return err
		}
	}
	return nil
}

// sealOlder notes that the older segment's file is now an archive too: the
// spool never writes it again, and a rotation that empties the segment
// starts a new file (rotate).
func (s *spool) sealOlder() { s.linked[1-s.cur] = true }

// headingLength returns the length of the archive heading the file at
// path starts with (one a spool wrote: see Recorder.appendArchiveHeading),
// or 0 if it starts with none.
func headingLength(path string) int64 {
	f, err := os.Open(path)
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
