package nowaitopen

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrLink says a file opened by File is a symbolic link.
var ErrLink = errors.New("a symbolic link: give the file's own path")

// File opens name, one of the bridge's own files (a log it appends to, a
// lock, a spool segment), with flag and perm as os.OpenFile does, but never
// through a symbolic link at name and without waiting on it, and keeps it
// only when it is a regular file. The name of such a file is known in
// advance, so whoever could write beside it before the bridge started (an
// agent in an earlier session, a cloned repository) could plant a link,
// choosing where the bridge creates and extends a file, or a named pipe,
// whose open would hold the bridge until someone opened its other end.
// The errors name the path ("NAME is a symbolic link: give the file's own
// path", "NAME is not a regular file") and match ErrLink and ErrNotRegular.
func File(name string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(name, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
	switch {
	case errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK):
		if fi, lerr := os.Lstat(name); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is %w", name, ErrLink)
		}
		return nil, err
	case errors.Is(err, syscall.ENXIO):
		// Opened for writing only, a named pipe no one reads.
		return nil, fmt.Errorf("%s is %w", name, ErrNotRegular)
	case err != nil:
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is %w", name, ErrNotRegular)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
