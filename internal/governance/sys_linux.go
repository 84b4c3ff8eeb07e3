package governance

import (
	"io/fs"
	"syscall"
)

// procSuperMagic is the f_type statfs reports for a procfs mount.
const procSuperMagic = 0x9fa0

// onProcfs reports whether dir is on a procfs mount, wherever it is
// mounted: every symlink there (self, <pid>/cwd, <pid>/fd/N, mounts) is
// resolved relative to the process that opens it. A directory that cannot
// be examined counts as procfs, so its links are refused.
func onProcfs(dir string) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return true
	}
	return st.Type == procSuperMagic
}

// hasLinks reports whether the file fi describes has more than one name.
func hasLinks(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
