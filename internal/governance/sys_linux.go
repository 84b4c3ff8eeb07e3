package governance

import (
	"errors"
	"io/fs"
	"strconv"
	"sync"
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

// fileKey names the file fi describes by its device and inode when it
// has more than one name (hasLinks), so that its hard links compare
// equal; "" otherwise.
func fileKey(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink < 2 {
		return ""
	}
	return "\x00file " + strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(st.Ino, 10)
}

// lookupPlain looks the path p up as the kernel does, following no
// symlink at all (openat2 with RESOLVE_NO_SYMLINKS, which also refuses
// /proc's magic links), and returns nil when it names a file (a directory,
// if dir), else the error: syscall.ELOOP for a symlink anywhere on the
// way, ENOENT or ENOTDIR for a missing element reached through none, or
// any other (ENOSYS before Linux 5.6, a filter refusing the call), which
// tells the caller nothing. Where openat2 does not open "/" (plainWorks),
// a filter answers it whatever the path, and every lookup reports
// errors.ErrUnsupported: a sandbox's seccomp filter may fail calls it does
// not know with any errno, ENOENT too, which would read as "missing,
// through no link".
func lookupPlain(p string, dir bool) error {
	if !plainWorks() {
		return errors.ErrUnsupported
	}
	flags := uint64(unix.O_PATH | unix.O_CLOEXEC)
	if dir {
		flags |= unix.O_DIRECTORY
	}
	fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{Flags: flags, Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS})
	if err != nil {
		return err
	}
	unix.Close(fd)
	return nil
}

// plainWorks reports whether openat2 opens "/" as lookupPlain looks paths
// up, asked once: a seccomp filter sees no path (only the call and its
// registers), so one that answers openat2 at all answers it for every
// path. The descriptor must be a new one: the bridge's standard input,
// output and error are open, so a real open returns none of 0, 1 and 2,
// where a filter that fakes success (an errno of 0) returns 0, having
// opened nothing; that one is not closed.
var plainWorks = sync.OnceValue(func() bool {
	fd, err := unix.Openat2(unix.AT_FDCWD, "/", &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS})
	if err != nil || fd <= 2 {
		return false
	}
	unix.Close(fd)
	return true
})

// statError returns the error os.Stat(p) would return, as far as
// errors.Is(err, fs.ErrNotExist) and err == nil tell: nil when p leads to
// a file, else the errno, read into a buffer that does not escape, so
// asking whether a name exists allocates no FileInfo or PathError.
func statError(p string) error {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(p, &st)
		if err != syscall.EINTR { // os.Stat's ignoringEINTR
			if err == nil {
				return nil
			}
			return err
		}
	}
}
