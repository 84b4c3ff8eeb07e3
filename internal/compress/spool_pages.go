package compress

import "io"

// spoolPageBytes is the page size of the page cache, and ext4's block
// size: a pageWriter's size is a whole number of them.
const spoolPageBytes = 4 << 10

// pageWriter is the spool's write buffer over a segment file. It writes
// what it holds as bufio.Writer would, except that a full buffer is
// written only up to the last offset of the file that is a multiple of
// the buffer's size, the rest staying in the buffer. After the first,
// then, every write but a flush's is a whole buffer at an offset that is
// a multiple of its size: blocks of whole pages, which the page cache
// takes whole (it neither zeroes part of a new page nor visits a page
// twice, and can hold a block in one folio). Flush writes everything.
// The file's bytes are those a bufio.Writer gives for the same writes
// (FuzzPageWriter).
type pageWriter struct {
	f   io.Writer
	buf []byte // cap is the buffer's size
	off int64  // the file offset buf[0] goes to
	err error  // the first write error; later writes and Flush return it
}

// newPageWriter returns a writer of size bytes (rounded up to whole
// pages) appending to f, whose next write lands at offset off.
func newPageWriter(f io.Writer, off int64, size int) *pageWriter {
	size = max((size+spoolPageBytes-1)/spoolPageBytes, 1) * spoolPageBytes
	return &pageWriter{f: f, buf: make([]byte, 0, size), off: off}
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
		w.writePages()
	}
	if w.err != nil {
		return n, w.err
	}
	w.buf = append(w.buf, p...)
	return n + len(p), nil
}

// writePages writes the full buffer up to the last offset it reaches
// that is a multiple of its size (at least one byte of it: the buffer is
// full) and keeps the rest.
func (w *pageWriter) writePages() {
	size := int64(cap(w.buf))
	w.write(len(w.buf) - int((w.off+size)%size))
}

// Flush writes everything buffered.
func (w *pageWriter) Flush() error {
	if w.err == nil && len(w.buf) > 0 {
		w.write(len(w.buf))
	}
	return w.err
}

// write writes the buffer's first n bytes and moves the rest to its start.
func (w *pageWriter) write(n int) {
	m, err := w.f.Write(w.buf[:n])
	if err == nil && m < n {
		err = io.ErrShortWrite
	}
	w.off += int64(m)
	w.buf = w.buf[:copy(w.buf, w.buf[m:])]
	w.err = err
}
