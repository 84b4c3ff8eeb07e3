package main

import (
	"os"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
)

// openOwnFile opens path, one of the bridge's own output files (--log-file,
// --record), for appending, creating it 0600: never through a symbolic
// link planted at it, and only as a regular file, so that a named pipe
// planted there does not hold the bridge's start until someone reads it,
// and of one name, so that it is no second name of a file elsewhere.
func openOwnFile(path string) (*os.File, error) {
	return nowaitopen.SoleFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}
