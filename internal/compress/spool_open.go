package compress

import (
	"os"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
)

// openSegment opens name, a file of the pipeline's own (a spool segment,
// the event log), with flag, never through a symbolic link and without
// waiting on it, and keeps it only when it is a regular file: a segment's
// name is known in advance (the session id the agent chose, and its
// hash), and a named pipe planted there before the bridge started would
// hold the open, and with it the session's forwarding, until someone
// opened the pipe's other end.
func openSegment(name string, flag int, perm os.FileMode) (*os.File, error) {
	return nowaitopen.File(name, flag, perm)
}
