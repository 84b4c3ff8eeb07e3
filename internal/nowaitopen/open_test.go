//go:build unix

package nowaitopen

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// dirWithFile makes a temporary directory holding one regular file, f,
// and returns both paths.
func dirWithFile(t *testing.T) (dir, file string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// TestOpenRegular checks that a regular file is opened, and that a named
// pipe is opened without waiting and refused with ErrNotRegular.
func TestOpenRegular(t *testing.T) {
	dir, file := dirWithFile(t)
	f, fi, err := OpenRegular(file, 0)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("OpenRegular(file): %v, %v; want a regular file", fi, err)
	}
	f.Close()
	fifo := filepath.Join(dir, "p")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenRegular(fifo, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("OpenRegular(fifo): %v; want ErrNotRegular", err)
	}
	f, fi, err = Open(fifo, 0)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("Open(fifo): %v, %v; want the pipe, opened without waiting", fi, err)
	}
	f.Close()
}

// TestOpenDir checks that a directory is opened for listing and that a
// regular file is refused with ErrNotDirectory.
func TestOpenDir(t *testing.T) {
	dir, file := dirWithFile(t)
	f, err := OpenDir(dir)
	if err != nil {
		t.Fatalf("OpenDir(dir): %v", err)
	}
	f.Close()
	if _, err := OpenDir(file); !errors.Is(err, ErrNotDirectory) {
		t.Errorf("OpenDir(file): %v; want ErrNotDirectory", err)
	}
}
