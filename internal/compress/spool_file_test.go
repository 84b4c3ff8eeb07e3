package compress

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzSegmentFile checks that a segment written through pageWriter and
// segmentFile, direct I/O and all, holds exactly the bytes a bufio.Writer
// writes for the same calls after what the file held, from any offset
// (the heading's length, a segment taken up again), with the buffer the
// spool gives it.
func FuzzSegmentFile(f *testing.F) {
	f.Add(uint16(224), []byte{0, 255, 0, 255, 0, 255, 0, 255, 3, 0, 1, 200, 2, 255, 3, 0})
	f.Add(uint16(0), []byte{1, 255, 1, 255, 1, 255, 1, 255, 1, 255, 1, 255, 1, 255, 1, 255})
	f.Add(uint16(4096), []byte{2, 255, 3, 0, 2, 255, 3, 0, 0, 1, 3, 0})
	f.Fuzz(func(t *testing.T, start uint16, ops []byte) {
		path := filepath.Join(t.TempDir(), "seg")
		head := bytes.Repeat([]byte("h"), int(start))
		if err := os.WriteFile(path, head, 0o600); err != nil {
			t.Fatal(err)
		}
		file, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		seg := newSegmentFile(file, int64(len(head)), true)
		w := newPageWriter(seg, int64(len(head)), seg.bufferBytes(), spoolBufferBytes)
		// Large writes, so that the buffer fills more than once.
		var want bytes.Buffer
		want.Write(head)
		bw := bufio.NewWriterSize(&want, cap(w.back))
		rec := &pageRecorder{start: int64(len(head))}
		// pageOps's lengths reach 24 KiB; repeated, the ops cross a
		// direct buffer too.
		for range 8 {
			pageOps(ops, w, rec, bw)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("the segment holds %d bytes, bufio.Writer wrote %d: not the same", len(got), want.Len())
		}
	})
}

// TestSegmentFileDirect checks that on the test's file system (ext4 or
// tmpfs, which take O_DIRECT) the spool writes a turn's whole buffers
// past the page cache, from the first block offset on, with a one-block
// buffer until a block fills, and that the segment then holds what was
// written.
func TestSegmentFileDirect(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := NewRecorder("sess-direct", "/home/u/project")
	r.SpoolTo(filepath.Join(t.TempDir(), "spool"))
	lit := []byte(`"` + string(bytes.Repeat([]byte("0123456789abcdef"), 64)) + `"`)
	for range 3 << 10 {
		r.AgentChunk(at, "Agent", lit)
		// A turn's first 16 KiB take a buffer no larger than that.
		if w := r.spool.w; w.off < spoolBufferBytes && cap(w.back) != spoolBufferBytes {
			t.Fatalf("at offset %d the write buffer is %d bytes, want %d until a block fills", w.off, cap(w.back), spoolBufferBytes)
		}
	}
	seg, ok := r.spool.w.f.(*segmentFile)
	if !ok {
		t.Fatalf("the spool writes through %T, not a segmentFile", r.spool.w.f)
	}
	if !seg.direct || seg.passed == 0 {
		t.Fatalf("3 MiB spooled, %d bytes of it past the page cache (direct I/O taken: %v)", seg.passed, seg.direct)
	}
	if seg.passed%spoolDirectBytes != 0 {
		t.Errorf("%d bytes written past the page cache: not whole %d-byte buffers", seg.passed, spoolDirectBytes)
	}
	r.Release()
	var want bytes.Buffer
	if err := r.WriteArchive(&want, at); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(want.Bytes(), bytes.Repeat([]byte("0123456789abcdef"), 64)); n != 3<<10 {
		t.Errorf("the archive holds %d of the 3072 chunks", n)
	}
}

// TestReadDirect checks that readDirect passes exactly the bytes asked for,
// from any offset, across its 1 MiB blocks, and what the file holds of
// them when it ends first.
func TestReadDirect(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxyz\n"), (3<<20)/37)
	path := filepath.Join(t.TempDir(), "seg")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		from, n int64
	}{
		{"whole", 0, int64(len(data))},
		{"after a heading", 224, int64(len(data)) - 224},
		{"one byte", 4095, 1},
		{"across two blocks", spoolDirectBytes - 10, 20},
		{"three blocks from off a page", 5000, 2<<20 + 7},
		{"past the end", int64(len(data)) - 100, 1000},
		{"from past the end", int64(len(data)) + 10, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			if err := setDirectIO(src, true); err != nil {
				t.Fatalf("O_DIRECT on the test's file system: %v", err)
			}
			var got bytes.Buffer
			passed, err := readDirect(src, c.from, c.n, got.Write)
			if err != nil {
				t.Fatal(err)
			}
			want := data[min(c.from, int64(len(data))):min(c.from+c.n, int64(len(data)))]
			if passed != int64(len(want)) || !bytes.Equal(got.Bytes(), want) {
				t.Errorf("passed %d bytes (%d written), want the %d from %d", passed, got.Len(), len(want), c.from)
			}
		})
	}
}
