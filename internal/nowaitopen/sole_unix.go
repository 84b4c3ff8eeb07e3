//go:build unix

package nowaitopen

import (
	"os"
	"syscall"
)

// LinkCount returns how many names the file fi describes has (0 for a
// file deleted while open), 1 when the system does not say.
func LinkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
