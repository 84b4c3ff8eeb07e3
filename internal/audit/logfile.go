package audit

import (
	"io"
	"os"
	"path/filepath"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
)

// file is what a Log writes to: an *os.File, or a failing one in tests.
type file interface {
	io.Writer
	Sync() error
	Close() error
	Stat() (os.FileInfo, error)
}

// openAppend opens name for appending, never through a symbolic link put
// at its path, nor when the file has another name (a hard link): the log's
// records would be appended to the file the link names.
func openAppend(name string) (file, error) {
	return nowaitopen.SoleFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
}

// syncDir fsyncs the directory holding path so a created or renamed file
// survives a crash of the machine.
func syncDir(path string) {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
