//go:build unix

package auditweb

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFilesDoNotHang: a FIFO (which blocks whoever opens it) or a
// symlink planted where the server looks for logs (a name given, a
// directory, a rotated sibling) is not read.
func TestSpecialFilesDoNotHang(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	if err := syscall.Mkfifo(path+".000001", 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "other.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/hostname", path+".000002"); err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{path}, {dir}, {filepath.Join(dir, "other.jsonl")}} {
		done := make(chan error, 1)
		go func() {
			s, err := New(Options{Paths: paths})
			if err == nil && len(s.logs[0].files) != 1 {
				t.Errorf("%v: files %d, want the active file only", paths, len(s.logs[0].files))
			}
			done <- err
		}()
		select {
		case err := <-done:
			if paths[0] == filepath.Join(dir, "other.jsonl") && err == nil {
				t.Error("a FIFO given by name was accepted as a log")
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%v: New hangs on a FIFO", paths)
		}
	}
}

// TestEndlessLine: a file whose first line is an event followed by a line
// with no end is not read into memory whole; the log fails to open,
// saying why.
func TestEndlessLine(t *testing.T) {
	_, err := New(Options{Paths: []string{writeEndlessLine(t)}})
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("New = %v, want a line-too-long error", err)
	}
}

// writeEndlessLine writes a log whose first line is an event, followed by
// a line longer than audit.MaxLineBytes.
func writeEndlessLine(t *testing.T) string {
	t.Helper()
	path := writeLog(t, t.TempDir())
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 1<<20)
	for i := range chunk {
		chunk[i] = 'x'
	}
	for range 17 {
		f.Write(chunk)
	}
	f.Write([]byte("\n"))
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
