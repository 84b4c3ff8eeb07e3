package governance

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// A tar archive ends at two zero blocks, but GNU tar given -i
// (--ignore-zeros, in a cluster such as "xif", or a prefix such as
// --ignore-z) reads on past them, and "tar xif cat.tar" extracts the
// members of a second archive appended after the first one's end. The
// members the bridge decides are read past every zero block, whatever the
// options say: a member after the end is decided as a write too, and bytes
// after the end that are not a tar member make the archive unreadable.

// An archive that ends before its end marker (an empty file among them)
// is read as one still being written: "base64 -d e.b64 > e.tgz", approved
// and run by the agent itself, makes e.tgz empty before it fills it, and a
// line extracting it decided in between would be judged on no members at
// all. tar writes the marker at the end of every archive it makes, so such
// a file's members are not known (errUnended).

// errUnended is why an archive without its end marker has members that
// are not known.
const errUnended = "it ends before a tar archive's end marker, as a file still being written does (an empty file too), so the members it will hold are not known"

// tailReader passes r's bytes on and remembers the last block (512
// bytes) of them, so that the end of a tar stream tells whether it was
// the end marker's zero block.
type tailReader struct {
	r    io.Reader
	n    int64
	tail [512]byte
}

// Read reads from r and keeps the last 512 bytes read so far.
func (t *tailReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	b := p[:n]
	if len(b) >= len(t.tail) {
		copy(t.tail[:], b[len(b)-len(t.tail):])
	} else if len(b) > 0 {
		copy(t.tail[:], t.tail[len(b):])
		copy(t.tail[len(t.tail)-len(b):], b)
	}
	t.n += int64(n)
	return n, err
}

// endedByMarker reports whether what t passed on ends with a zero block.
func (t *tailReader) endedByMarker() bool {
	return t.n >= int64(len(t.tail)) && t.tail == [512]byte{}
}

// errUnpackTooLarge is what boundedReader gives past maxUnpackBytes.
var errUnpackTooLarge = fmt.Errorf("it is larger than %d bytes", maxUnpackBytes)

// boundedReader reads at most left bytes of r, and then fails with
// errUnpackTooLarge rather than ending: an archive cut at the bound is
// not read as one that ends there.
type boundedReader struct {
	r    io.Reader
	left int64
}

// Read reads from the underlying reader while bytes are left.
func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errUnpackTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// tarEachMember calls each with every member header of the tar stream r,
// reading on past the end marker as tar -i does, and returns why the
// members cannot be known, or the first reason each gives. It reads at
// most maxUnpackBytes: a small compressed archive may expand to any size.
func tarEachMember(r io.Reader, each func(*tar.Header) string) string {
	br := bufio.NewReaderSize(&boundedReader{r: r, left: maxUnpackBytes}, 4096)
	for {
		tail := &tailReader{r: br}
		tr := tar.NewReader(tail)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				if !tail.endedByMarker() {
					return errUnended
				}
				break
			}
			if errors.Is(err, errUnpackTooLarge) {
				return err.Error()
			}
			if err != nil {
				return "it is not a tar archive the bridge reads (" + err.Error() + ")"
			}
			if why := each(h); why != "" {
				return why
			}
		}
		more, why := pastZeroBlocks(br)
		if !more {
			return why
		}
	}
}

// pastZeroBlocks reads the zero blocks after a tar archive's end marker
// and reports whether a block that is not zero follows them (the next
// member tar -i reads); why, when what follows cannot be read. Garbage
// after the last gzip member ends the stream, as gzip ignores it.
func pastZeroBlocks(br *bufio.Reader) (bool, string) {
	zero := make([]byte, 512)
	for {
		b, err := br.Peek(512)
		if len(b) == 512 && !bytes.Equal(b, zero) {
			return true, ""
		}
		if len(b) == 512 {
			br.Discard(512)
			continue
		}
		switch {
		case len(b) > 0 && !bytes.Equal(b, zero[:len(b)]):
			return false, "bytes that are not a tar member follow its end"
		case err == io.EOF, errors.Is(err, gzip.ErrHeader):
			return false, ""
		case errors.Is(err, errUnpackTooLarge):
			return false, err.Error()
		}
		return false, "what follows its end cannot be read (" + err.Error() + ")"
	}
}
