package governance

import (
	"archive/zip"
	"encoding/binary"
	"io"
	"os"
)

// A zip member has more than one name: the one in the central directory
// (which unzip lists and, without other fields, extracts under), the one
// in its local header before its data (which a reader of the stream
// extracts under), and in the extra fields of either an Info-ZIP Unicode
// Path (0x7075), which unzip, bsdtar and 7-Zip extract under instead of
// the header's name: "unzip u.zip" with a member listed as src/zz.txt and
// a Unicode Path secrets/a.key writes secrets/a.key. zipMembers gives
// every one of them, whatever the field's version or checksum (which tells
// the extractor whether to trust it), and each is decided as a write. A
// local header that cannot be read makes the archive unreadable.

// unicodePathField is the id of the Info-ZIP Unicode Path extra field.
const unicodePathField = 0x7075

// zipMember is one member of a zip archive: every name an extractor may
// give it, and whether it is a symbolic link.
type zipMember struct {
	names []string
	link  bool
}

// offsetLog is an io.ReaderAt that keeps the offset of the first read
// since it was reset: the local header's, when zip.File.DataOffset reads
// it.
type offsetLog struct {
	r     io.ReaderAt
	first int64
	read  bool
}

// ReadAt reads from the underlying file, noting the first offset read.
func (o *offsetLog) ReadAt(p []byte, off int64) (int, error) {
	if !o.read {
		o.first, o.read = off, true
	}
	return o.r.ReadAt(p, off)
}

// zipMembers returns the members of the zip archive f of size bytes, each
// with every name it may be extracted under, or why they cannot be known.
func zipMembers(f *os.File, size int64) ([]zipMember, string) {
	log := &offsetLog{r: f}
	z, err := zip.NewReader(log, size)
	if err != nil {
		return nil, "it is not a zip archive the bridge reads (" + err.Error() + ")"
	}
	var out []zipMember
	for _, m := range z.File {
		names := append([]string{m.Name}, unicodePaths(m.Name, m.Extra)...)
		log.read = false
		if _, err := m.DataOffset(); err != nil || !log.read {
			return nil, "the local header of " + m.Name + " cannot be read"
		}
		local, extra, ok := zipLocalHeader(f, log.first)
		if !ok {
			return nil, "the local header of " + m.Name + " cannot be read"
		}
		names = append(names, local)
		names = append(names, unicodePaths(local, extra)...)
		out = append(out, zipMember{names: uniqueNames(names), link: m.Mode()&os.ModeSymlink != 0})
	}
	return out, ""
}

// zipLocalHeader returns the name and the extra fields of the local
// header at off in r.
func zipLocalHeader(r io.ReaderAt, off int64) (string, []byte, bool) {
	var h [30]byte
	if _, err := r.ReadAt(h[:], off); err != nil || binary.LittleEndian.Uint32(h[:]) != 0x04034b50 {
		return "", nil, false
	}
	n, e := int(binary.LittleEndian.Uint16(h[26:])), int(binary.LittleEndian.Uint16(h[28:]))
	b := make([]byte, n+e)
	if _, err := r.ReadAt(b, off+30); err != nil {
		return "", nil, false
	}
	return string(b[:n]), b[n:], true
}

// unicodePaths returns the names the Info-ZIP Unicode Path fields among
// extra give a member whose header names it name: the field's UTF-8 name,
// or name itself when the field's is empty (unzip then reads the header's
// name as UTF-8). The fields are read as unzip reads them, stopping at
// one whose length overruns the rest.
func unicodePaths(name string, extra []byte) []string {
	var out []string
	for len(extra) >= 4 {
		id, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if n > len(extra)-4 {
			break
		}
		if data := extra[4 : 4+n]; id == unicodePathField && n >= 5 {
			if p := string(data[5:]); p != "" {
				out = append(out, p)
			} else {
				out = append(out, name)
			}
		}
		extra = extra[4+n:]
	}
	return out
}

// uniqueNames returns names without repeats, in their order.
func uniqueNames(names []string) []string {
	var out []string
	for _, n := range names {
		seen := false
		for _, o := range out {
			seen = seen || o == n
		}
		if !seen {
			out = append(out, n)
		}
	}
	return out
}
