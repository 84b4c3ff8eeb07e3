//go:build !unix

package auditweb

import (
	"fmt"
	"os"
)

// openRegular opens name for reading only if it is a regular file (not a
// symlink, pipe or device).
func openRegular(name string) (*os.File, os.FileInfo, error) {
	if fi, err := os.Lstat(name); err != nil {
		return nil, nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file", name)
	}
	return f, fi, nil
}
