package acpwire

import (
	"os"
	"syscall"
)

// fSetPipeSize is F_SETPIPE_SZ from <linux/fcntl.h>.
const fSetPipeSize = 1031

// growPipe asks the kernel for a pipeSize buffer on the pipe f. A refusal
// (a lower pipe-max-size, the user's pipe quota) keeps the default size,
// which only costs speed.
func growPipe(f *os.File) {
	sc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = sc.Control(func(fd uintptr) {
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSize, pipeSize)
	})
}
