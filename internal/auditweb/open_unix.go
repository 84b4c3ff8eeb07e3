//go:build unix

package auditweb

import (
	"fmt"
	"os"
	"syscall"
)

// openRegular opens name for reading only if it is a regular file: not a
// symlink (O_NOFOLLOW), and not a FIFO or device, which O_NONBLOCK keeps
// from blocking the open and which are then refused.
func openRegular(name string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file", name)
	}
	return f, fi, nil
}
