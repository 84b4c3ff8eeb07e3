package acpwire

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"testing"
	"time"
)

// TestPipeTakes checks that pipeTakes never promises a write the pipe does
// not take at once, and does promise one into an empty pipe: after every
// step of a random mix of writes (small ones that share pages, sizes that
// leave most of a page unused) and partial reads, each write it allows must
// complete without a reader.
func TestPipeTakes(t *testing.T) {
	for _, size := range []int{64 << 10, pipeSize} {
		r, w := osPipe(t)
		if size != 64<<10 {
			growPipe(w)
		}
		takes := pipeTakes(w)
		if takes == nil {
			t.Fatal("pipeTakes(pipe) = nil")
		}
		if takes(size + 1) {
			t.Fatalf("empty %d-byte pipe takes %d bytes", size, size+1)
		}
		buf := make([]byte, size)
		if !takes(size) {
			t.Fatalf("empty %d-byte pipe does not take %d bytes", size, size)
		}
		mustWrite(t, w, buf)
		if takes(1) {
			t.Fatalf("full %d-byte pipe takes a byte", size)
		}
		if _, err := io.ReadFull(r, buf); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(size), 7))
		held, allowed := 0, 0
		for range 2000 {
			switch rng.IntN(3) {
			case 0: // a write of a size that wastes most of a page
				if held+2049 <= size/2 {
					mustWrite(t, w, buf[:2049])
					held += 2049
				}
			case 1:
				if held > 0 {
					k := 1 + rng.IntN(held)
					if _, err := io.ReadFull(r, buf[:k]); err != nil {
						t.Fatal(err)
					}
					held -= k
				}
			}
			if n := 1 + rng.IntN(size); takes(n) {
				mustWrite(t, w, buf[:n])
				held += n
				allowed++
			}
		}
		if allowed == 0 {
			t.Errorf("%d-byte pipe: no write allowed in 2000 steps", size)
		}
		r.Close()
		w.Close()
	}
}

// mustWrite writes p to the pipe w and fails if the write has to wait for
// a reader.
func mustWrite(t *testing.T, w *os.File, p []byte) {
	t.Helper()
	if err := w.SetWriteDeadline(time.Now().Add(2 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(p); err != nil {
		t.Fatalf("writing %d bytes the pipe was said to take: %v", len(p), err)
	}
}

// TestPipeTakesOnlyPipes checks that pipeTakes reports nothing for what is
// not a pipe, and nothing once the pipe is closed, so the bridge never
// counts on a write not waiting there.
func TestPipeTakesOnlyPipes(t *testing.T) {
	f := regularFile(t)
	if pipeTakes(f) != nil {
		t.Error("pipeTakes(regular file) != nil")
	}
	if pipeTakes(&bytes.Buffer{}) != nil {
		t.Error("pipeTakes(*bytes.Buffer) != nil")
	}
	r, w := osPipe(t)
	takes := pipeTakes(w)
	r.Close()
	w.Close()
	if takes(1) {
		t.Error("a closed pipe takes a write")
	}
}
