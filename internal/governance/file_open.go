package governance

import (
	"fmt"
	"io"
	"os"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
)

// The files the bridge reads to decide a request (an archive, a script
// file, a git configuration and what it includes, a directory a glob
// lists) are the agent's to make: one of them may be a named pipe, which
// an open for reading would wait on until someone writes to it, holding
// the decision, and the message behind it, for ever. They are opened
// without blocking (O_NONBLOCK, which changes nothing for a regular file or
// a directory) and read only when they are what the caller expects.

// errNotRegular says a file the bridge reads is not a regular file.
var errNotRegular = nowaitopen.ErrNotRegular

// errNotDirectory says a directory the bridge lists is not one.
var errNotDirectory = nowaitopen.ErrNotDirectory

// openRegular opens the regular file at p for reading without waiting on
// anything else (errNotRegular).
func openRegular(p string) (*os.File, os.FileInfo, error) {
	return nowaitopen.OpenRegular(p, 0)
}

// openDir opens the directory at p for listing without waiting on
// anything else (errNotDirectory).
func openDir(p string) (*os.File, error) {
	return nowaitopen.OpenDir(p)
}

// maxConfigFileBytes bounds a git configuration file (or .git file,
// commondir) the bridge reads.
const maxConfigFileBytes = 1 << 20

// readRegular returns the text of the regular file at p, at most max
// bytes (an error past it), without waiting on anything else.
func readRegular(p string, max int64) ([]byte, error) {
	f, _, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("larger than %d bytes", max)
	}
	return b, nil
}
