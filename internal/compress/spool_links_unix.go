//go:build unix

package compress

import (
	"os"
	"syscall"
)

// noFollow keeps the spool from opening a symbolic link planted at a
// segment's path: the bridge would write the conversation into whatever
// file it leads to.
const noFollow = syscall.O_NOFOLLOW

// linkedElsewhere reports whether the file st describes has more than one
// name.
func linkedElsewhere(st os.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && uint64(sys.Nlink) > 1
}

// nonBlock keeps the spool's open of a named pipe planted at a segment's
// name from waiting for the pipe's other end (see openSegment).
const nonBlock = syscall.O_NONBLOCK
