//go:build unix

package audit

import (
	"os"
	"syscall"
)

// linkCount returns how many names the file has; 0 means it was deleted
// while open. It returns 1 when the system does not say.
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
