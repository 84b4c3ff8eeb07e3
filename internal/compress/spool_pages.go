package compress

import (
	"io"
	"unsafe"
)

// spoolPageBytes is the page size of the page cache, and ext4's block
// size: a pageWriter's size and block are whole numbers of them.
const spoolPageBytes = 4 << 10

// pageWriter is the spool's write buffer over a segment file. It writes
// what it holds as bufio.Writer would, except that it writes a block once
// the buffer reaches the next offset of the file that is a multiple of
// its block size, or holds its whole size from such an offset: after the
// first, then, every write but a flush's is a whole buffer at an offset
// that is a multiple of the block size, from memory that starts at a
// multiple of the page size. The buffer starts at one block and grows to
// its size the first time a block fills from such an offset, so that a
// short turn allocates no more than a block. Blocks of whole pages are what the page cache
// takes whole (it neither zeroes part of a new page nor visits a page
// twice, and can hold a block in one folio), and what a file opened for
// direct I/O takes at all (segmentFile). Flush writes everything. The
// file's bytes are those a bufio.Writer gives for the same writes
// (FuzzPageWriter).
type pageWriter struct {
	f     io.Writer
	back  []byte // the buffer's memory, a block or size bytes
	buf   []byte // what is buffered, at the start of back; cap is the room before the next write
	size  int    // what back grows to
	block int64  // writes but a flush's end at multiples of it
	off   int64  // the file offset buf[0] goes to
	err   error  // the first write error; later writes and Flush return it
}

// newPageWriter returns a writer of size bytes (rounded up to whole
// blocks) writing blocks of block bytes (rounded up to whole pages) at
// multiples of block to f, whose next write lands at offset off.
func newPageWriter(f io.Writer, off int64, size, block int) *pageWriter {
	block = max((block+spoolPageBytes-1)/spoolPageBytes, 1) * spoolPageBytes
	size = max((size+block-1)/block, 1) * block
	w := &pageWriter{f: f, back: alignedBuffer(block), size: size, block: int64(block), off: off}
	w.buf = w.back[:0:w.room()]
	return w
}

// alignedBuffer returns an empty slice of capacity size whose memory
// starts at a multiple of spoolPageBytes, as direct I/O needs.
func alignedBuffer(size int) []byte {
	raw := make([]byte, size+spoolPageBytes)
	skip := (spoolPageBytes - int(uintptr(unsafe.Pointer(unsafe.SliceData(raw)))%spoolPageBytes)) % spoolPageBytes
	return raw[skip : skip : skip+size]
}

// room returns the bytes the buffer takes from off before it is written:
// up to the next multiple of the block size, or the whole buffer from one.
func (w *pageWriter) room() int {
	if r := w.off % w.block; r != 0 {
		return int(w.block - r)
	}
	return cap(w.back)
}

// AvailableBuffer returns an empty buffer with the writer's free room, to
// append to and pass to Write (as bufio.Writer.AvailableBuffer).
func (w *pageWriter) AvailableBuffer() []byte { return w.buf[len(w.buf):][:0] }

// Write buffers p, writing blocks to the file as the buffer fills.
func (w *pageWriter) Write(p []byte) (int, error) { return writeBuffered(w, p) }

// WriteString is Write for a string.
func (w *pageWriter) WriteString(s string) (int, error) { return writeBuffered(w, s) }

// writeBuffered is Write and WriteString: it appends p to w's buffer,
// writing blocks to the file each time the buffer fills.
func writeBuffered[T string | []byte](w *pageWriter, p T) (int, error) {
	n := 0
	for w.err == nil && len(w.buf)+len(p) > cap(w.buf) {
		k := cap(w.buf) - len(w.buf)
		w.buf = append(w.buf, p[:k]...)
		n, p = n+k, p[k:]
		if !w.grow() {
			w.write()
		}
	}
	if w.err != nil {
		return n, w.err
	}
	w.buf = append(w.buf, p...)
	return n + len(p), nil
}

// Flush writes everything buffered.
func (w *pageWriter) Flush() error {
	if w.err == nil && len(w.buf) > 0 {
		w.write()
	}
	return w.err
}

// grow replaces a full one-block buffer that starts at a multiple of the
// block size by one of the writer's size holding the same bytes, and
// reports whether it did: the block is then written with the ones after it.
func (w *pageWriter) grow() bool {
	if cap(w.back) >= w.size || w.off%w.block != 0 || len(w.buf) != cap(w.back) {
		return false
	}
	w.back = append(alignedBuffer(w.size), w.buf...)
	w.buf = w.back[:len(w.buf):w.size]
	return true
}

// write writes the buffer and makes room for the next block; what a
// failed write left is kept at the buffer's start.
func (w *pageWriter) write() {
	n := len(w.buf)
	m, err := w.f.Write(w.buf)
	if err == nil && m < n {
		err = io.ErrShortWrite
	}
	w.off += int64(m)
	w.err = err
	left := copy(w.back[:n], w.buf[m:])
	w.buf = w.back[:left:max(w.room(), left)]
}
