// Package nowaitopen opens a file without waiting on it: a named pipe or a
// device put where a file was expected would otherwise hold the open until
// someone opens its other end. O_NONBLOCK changes nothing for a regular
// file or a directory. Open, OpenRegular and OpenDir read what another
// wrote; File opens the bridge's own files, never through a link.
package nowaitopen

import (
	"errors"
	"os"
	"syscall"
)

// ErrNotRegular says a file opened by OpenRegular is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrNotDirectory says a file opened by OpenDir is not a directory.
var ErrNotDirectory = errors.New("not a directory")

// Open opens name for reading without blocking, with flag (O_NOFOLLOW,
// say) added to the open's flags, and returns it with what it is.
func Open(name string, flag int) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|flag, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// OpenRegular opens name as Open does and keeps it only when it is a
// regular file (ErrNotRegular otherwise).
func OpenRegular(name string, flag int) (*os.File, os.FileInfo, error) {
	f, fi, err := Open(name, flag)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, ErrNotRegular
	}
	return f, fi, nil
}

// OpenDir opens the directory name for listing as Open does (no flag
// added) and keeps it only when it is a directory (ErrNotDirectory
// otherwise).
func OpenDir(name string) (*os.File, error) {
	f, fi, err := Open(name, 0)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		f.Close()
		return nil, ErrNotDirectory
	}
	return f, nil
}
