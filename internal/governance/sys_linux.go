package governance

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
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

// plainDir reports whether dir is a directory the kernel reaches through
// no symlink, in one lookup (openat2 with RESOLVE_NO_SYMLINKS, which also
// refuses /proc's magic links); false when it is not, or when the lookup
// fails for any reason (no openat2 before Linux 5.6, a filter refusing
// it): the caller then looks at each element itself.
func plainDir(dir string) bool {
	fd, err := unix.Openat2(unix.AT_FDCWD, dir, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}
