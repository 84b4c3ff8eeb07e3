package nowaitopen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFile: a regular file is opened and appended to; a link or a named
// pipe at the name is refused at once, in words naming the path, and the
// link's target is never created.
func TestFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	const appendFlags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	tests := []struct {
		name, path string
		flag       int
		want       error
		words      string
	}{
		{"new file", filepath.Join(dir, "log"), appendFlags, nil, ""},
		{"link", link, appendFlags, ErrLink, link + " is a symbolic link: give the file's own path"},
		{"link read and written", link, os.O_CREATE | os.O_RDWR, ErrLink, link + " is a symbolic link"},
		{"named pipe written", fifo, appendFlags, ErrNotRegular, fifo + " is not a regular file"},
		{"named pipe read and written", fifo, os.O_RDWR, ErrNotRegular, fifo + " is not a regular file"},
		{"directory", dir, os.O_RDONLY, ErrNotRegular, dir + " is not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := File(tt.path, tt.flag, 0o600)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("File: %v", err)
				}
				if _, err := f.WriteString("x\n"); err != nil {
					t.Errorf("write: %v", err)
				}
				f.Close()
				return
			}
			if f != nil {
				f.Close()
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.words) {
				t.Errorf("File: %v, want %v saying %q", err, tt.want, tt.words)
			}
		})
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("the link's target was created")
	}
}
