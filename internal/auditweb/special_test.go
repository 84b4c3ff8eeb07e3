//go:build unix

package auditweb

import (
	"os"
	"path/filepath"
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
