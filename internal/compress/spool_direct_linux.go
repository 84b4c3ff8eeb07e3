package compress

import (
	"os"

	"golang.org/x/sys/unix"
)

// setDirectIO sets or clears f's O_DIRECT flag; a file system without
// direct I/O refuses it with EINVAL.
func setDirectIO(f *os.File, on bool) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	err = rc.Control(func(fd uintptr) {
		var fl int
		if fl, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0); ferr != nil {
			return
		}
		if on {
			fl |= unix.O_DIRECT
		} else {
			fl &^= unix.O_DIRECT
		}
		_, ferr = unix.FcntlInt(fd, unix.F_SETFL, fl)
	})
	if err != nil {
		return err
	}
	return ferr
}
