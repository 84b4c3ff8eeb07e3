package compress

import "io"

// spoolPageBytes is the page size the spool aligns its writes to: the page
// cache's, and ext4's block size.
const spoolPageBytes = 4 << 10

// pageWriter is the spool's write buffer over a segment file. It writes
// what it holds as bufio.Writer would, except that a full buffer is
// written only up to the last page boundary of the file, the rest (less
// than a page) staying in the buffer: each write then fills whole pages
// from their start, which the kernel neither zeroes around nor visits
// twice. Flush writes everything. The file's bytes are those a
// bufio.Writer gives for the same writes (FuzzPageWriter).
type pageWriter struct {
	f   io.Writer
	buf []byte // cap is the buffer's size
	off int64  // the file offset buf[0] goes to
	err error  // the first write error; later writes and Flush return it
}

// newPageWriter returns a writer of size bytes (at least two pages)
// appending to f, whose next write lands at offset off.
func newPageWriter(f io.Writer, off int64, size int) *pageWriter {
	return &pageWriter{f: f, buf: make([]byte, 0, max(size, 2*spoolPageBytes)), off: off}
}

// AvailableBuffer returns an empty buffer with the writer's free room, to
// append to and pass to Write (as bufio.Writer.AvailableBuffer).
func (w *pageWriter) AvailableBuffer() []byte { return w.buf[len(w.buf):][:0] }

// Write buffers p, writing whole pages to the file as the buffer fills.
func (w *pageWriter) Write(p []byte) (int, error) {
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

// WriteString is Write for a string.
func (w *pageWriter) WriteString(s string) (int, error) {
	n := 0
	for w.err == nil && len(w.buf)+len(s) > cap(w.buf) {
		k := cap(w.buf) - len(w.buf)
		w.buf = append(w.buf, s[:k]...)
		n, s = n+k, s[k:]
		w.writePages()
	}
	if w.err != nil {
		return n, w.err
	}
	w.buf = append(w.buf, s...)
	return n + len(s), nil
}

// writePages writes the full buffer up to the file's last page boundary
// it reaches and keeps the rest.
func (w *pageWriter) writePages() {
	end := w.off + int64(len(w.buf))
	n := len(w.buf) - int(end%spoolPageBytes)
	w.write(n)
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
