//go:build unix

package compress

import (
	"os"
	"syscall"
)

// linkedElsewhere reports whether the file st describes has more than one
// name.
func linkedElsewhere(st os.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && uint64(sys.Nlink) > 1
}
