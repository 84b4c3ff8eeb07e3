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
	checkOpens(t, "File", File, []openCase{
		{"new file", filepath.Join(dir, "log"), appendFlags, nil, ""},
		{"link", link, appendFlags, ErrLink, link + " is a symbolic link: give the file's own path"},
		{"link read and written", link, os.O_CREATE | os.O_RDWR, ErrLink, link + " is a symbolic link"},
		{"named pipe written", fifo, appendFlags, ErrNotRegular, fifo + " is not a regular file"},
		{"named pipe read and written", fifo, os.O_RDWR, ErrNotRegular, fifo + " is not a regular file"},
		{"directory", dir, os.O_RDONLY, ErrNotRegular, dir + " is not a regular file"},
	})
	if _, err := os.Lstat(target); err == nil {
		t.Error("the link's target was created")
	}
}

// appendFlags opens a log to append to, as the bridge's own files are.
const appendFlags = os.O_CREATE | os.O_WRONLY | os.O_APPEND

// openCase is a name opened with flag: the file opened and written to
// when want is nil, else the error, in words holding words.
type openCase struct {
	name, path string
	flag       int
	want       error
	words      string
}

// checkOpens opens each case's path with open, the opener called name.
func checkOpens(t *testing.T, name string, open func(string, int, os.FileMode) (*os.File, error), cases []openCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			f, err := open(tt.path, tt.flag, 0o600)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("%s: %v", name, err)
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
				t.Errorf("%s: %v, want %v saying %q", name, err, tt.want, tt.words)
			}
		})
	}
}
