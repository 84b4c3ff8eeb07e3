package compress

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pageRecorder is a file that keeps what is written to it and where each
// write ended.
type pageRecorder struct {
	bytes.Buffer
	start int64   // the offset of the first byte written
	ends  []int64 // the offset each write ended at
	fail  int     // bytes after which writes fail; 0: never
}

func (r *pageRecorder) Write(p []byte) (int, error) {
	if r.fail > 0 && r.Len()+len(p) > r.fail {
		n := r.fail - r.Len()
		r.Buffer.Write(p[:n])
		return n, errors.New("disk full")
	}
	r.Buffer.Write(p)
	r.ends = append(r.ends, r.start+int64(r.Len()))
	return len(p), nil
}

// pageText is what pageOps writes pieces of.
var pageText = strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz", 2048)

// pageOps plays ops on w and on a bufio.Writer of the same size over want,
// as pageWriter's callers use them: each op byte picks Write, WriteString,
// an append to AvailableBuffer then Write, or Flush, with a length from the
// next byte (scaled, so that ops cross the buffer's end). It reports
// whether every write that was not a flush's ended at a multiple of the
// block size.
func pageOps(ops []byte, w *pageWriter, rec *pageRecorder, want *bufio.Writer) (aligned bool) {
	aligned = true
	text := pageText
	pos := 0
	for i := 0; i+1 < len(ops); i += 2 {
		n := int(ops[i+1]) * 97
		if n > len(text) {
			n = len(text)
		}
		p := text[pos%1000 : pos%1000+min(n, len(text)-pos%1000)]
		pos += 7
		before := len(rec.ends)
		switch ops[i] % 4 {
		case 0:
			w.Write([]byte(p))
			want.Write([]byte(p))
		case 1:
			w.WriteString(p)
			want.WriteString(p)
		case 2:
			w.Write(append(w.AvailableBuffer(), p...))
			want.Write(append(want.AvailableBuffer(), p...))
		case 3:
			w.Flush()
			want.Flush()
			continue
		}
		for _, end := range rec.ends[before:] {
			if end%w.block != 0 {
				aligned = false
			}
		}
	}
	w.Flush()
	want.Flush()
	return aligned
}

// FuzzPageWriter checks that pageWriter writes the bytes a bufio.Writer
// writes for the same calls, from any starting offset, with any size and
// block, that every write but a flush's ends at a multiple of the block
// size, and that the buffer's memory starts at a multiple of the page
// size (direct I/O takes nothing else).
func FuzzPageWriter(f *testing.F) {
	f.Add(int64(0), uint32(16<<10), uint16(16<<10), []byte{0, 200, 1, 255, 2, 10, 3, 0, 0, 255})
	f.Add(int64(157), uint32(16<<10), uint16(16<<10), []byte{0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255})
	f.Add(int64(4095), uint32(8<<10), uint16(8<<10), []byte{2, 1, 2, 255, 2, 255, 1, 3, 3, 0, 0, 84})
	f.Add(int64(1<<20+1), uint32(12345), uint16(12345), []byte{1, 100, 1, 100, 1, 100, 1, 100, 1, 100})
	f.Add(int64(224), uint32(256<<10), uint16(16<<10), []byte{0, 255, 0, 255, 3, 0, 0, 255, 1, 255, 2, 255, 3, 0, 1, 7})
	f.Add(int64(8192), uint32(64<<10), uint16(4<<10), []byte{0, 255, 0, 255, 0, 255, 3, 0, 2, 255})
	f.Fuzz(func(t *testing.T, off int64, size uint32, block uint16, ops []byte) {
		if off < 0 {
			off = -(off + 1)
		}
		rec := &pageRecorder{start: off}
		w := newPageWriter(rec, off, int(size%(1<<20)), int(block))
		var want bytes.Buffer
		bw := bufio.NewWriterSize(&want, cap(w.back))
		if !pageAligned(w.back[:1]) {
			t.Errorf("the buffer's memory does not start at a multiple of %d", spoolPageBytes)
		}
		if !pageOps(ops, w, rec, bw) {
			t.Errorf("a write that was not a flush's ended off a multiple of %d: %v (start %d)", w.block, rec.ends, off)
		}
		if !bytes.Equal(rec.Bytes(), want.Bytes()) {
			t.Errorf("pageWriter wrote %d bytes, bufio.Writer %d: not the same", rec.Len(), want.Len())
		}
		if cap(w.back)%int(w.block) != 0 || w.block%spoolPageBytes != 0 || len(w.buf) != 0 || w.off != off+int64(rec.Len()) {
			t.Errorf("after Flush: a %d-byte buffer of %d-byte blocks holding %d bytes, offset %d; want whole blocks of whole pages, 0, %d",
				cap(w.back), w.block, len(w.buf), w.off, off+int64(rec.Len()))
		}
	})
}

// TestPageWriterError checks that a failed write is kept: later writes and
// Flush return it and write nothing more.
func TestPageWriterError(t *testing.T) {
	rec := &pageRecorder{fail: 5000}
	w := newPageWriter(rec, 100, 8<<10, 8<<10)
	chunk := strings.Repeat("x", 3000)
	var err error
	for i := 0; i < 10 && err == nil; i++ {
		_, err = w.WriteString(chunk)
	}
	if err == nil || err.Error() != "disk full" {
		t.Fatalf("writing past the failure: err %v, want disk full", err)
	}
	if _, err := w.Write([]byte("more")); err == nil || err.Error() != "disk full" {
		t.Errorf("Write after the failure: err %v, want disk full", err)
	}
	if err := w.Flush(); err == nil || err.Error() != "disk full" {
		t.Errorf("Flush after the failure: err %v, want disk full", err)
	}
	if rec.Len() != 5000 {
		t.Errorf("the file holds %d bytes, want the 5000 written before the failure", rec.Len())
	}
}

// TestSpoolWritesWholePages checks that the spool writes a segment in
// blocks of its buffer's size at offsets that are multiples of it while a
// turn runs, whatever the length of its heading, and that a turn's end
// leaves it all on disk.
func TestSpoolWritesWholePages(t *testing.T) {
	dir := t.TempDir()
	r := NewRecorder("sess-pages", "/home/u/project")
	r.SpoolTo(filepath.Join(dir, "spool"))
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	lit := []byte(`"` + strings.Repeat("chunk of agent text ", 37) + `"`)
	var flushes int
	last := int64(-1)
	for i := range 400 {
		r.AgentChunk(at, "Agent", lit)
		if i%50 == 49 {
			r.Note(at, "Tool", "read [completed] file.go")
		}
		w := r.spool.w
		if w.off != last && last >= 0 {
			flushes++
			if w.off%spoolBufferBytes != 0 {
				t.Fatalf("after message %d the segment was written to offset %d, not a multiple of %d", i, w.off, spoolBufferBytes)
			}
		}
		last = w.off
	}
	if flushes == 0 {
		t.Fatal("the spool wrote nothing to its segment in 400 chunks")
	}
	r.Release()
	var want strings.Builder
	if err := r.WriteArchive(&want, at); err != nil {
		t.Fatal(err)
	}
	seg, err := os.ReadFile(filepath.Join(dir, "spool.0"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(r.appendArchiveHeading(nil, at, 0)) + string(seg[r.spool.skip[0]:])
	if r.spool.open != "" {
		got += "\n\n"
	}
	if got != want.String() {
		t.Errorf("the segment after the turn, under the archive's heading, is %d bytes; the archive is %d", len(got), want.Len())
	}
}
