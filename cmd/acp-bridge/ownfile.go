package main

import (
	"fmt"
	"os"
)

// openOwnFile opens path, one of the bridge's own output files (--log-file,
// --record), for appending, creating it 0600: never through a symbolic
// link planted at it, and only as a regular file, so that a named pipe
// planted there does not hold the bridge's start until someone reads it.
func openOwnFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|noFollow|nonBlock, 0o600)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
