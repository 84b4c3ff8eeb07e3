package nowaitopen

import (
	"errors"
	"fmt"
	"os"
)

// ErrHardLink says a file opened by SoleFile has another name.
var ErrHardLink = errors.New("a file with another name (a hard link): give a path of the bridge's own")

// SoleFile opens name as File does and keeps it only when the file has no
// other name. A hard link is no link at the name: whoever could write
// beside the bridge's files before it started (an agent in an earlier
// session, a cloned repository) could make the name a second one of a file
// elsewhere (~/.bashrc), which the bridge would then extend. A file the
// bridge creates has one name, so only a file found in place is refused.
// The error names the path ("NAME is a file with another name ...") and
// matches ErrHardLink. A symbolic link at a directory above name, beneath
// the working directory, is refused too (LinkedDir).
func SoleFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	if err := LinkedDir(name); err != nil {
		return nil, err
	}
	f, err := File(name, flag, perm)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && LinkCount(fi) > 1 {
		err = fmt.Errorf("%s is %w", name, ErrHardLink)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
