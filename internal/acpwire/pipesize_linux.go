package acpwire

import (
	"os"
	"syscall"
)

// fSetPipeSize is F_SETPIPE_SZ from <linux/fcntl.h>.
const fSetPipeSize = 1031

// growPipe asks the kernel for a pipeSize buffer on the pipe f, unless it
// holds that much already: a pipe the IDE made larger stays as large. A
// refusal (a lower pipe-max-size, the user's pipe quota) or a file that is
// not a pipe keeps its size, which only costs speed.
func growPipe(f *os.File) {
	sc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = sc.Control(func(fd uintptr) {
		size, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, fGetPipeSize, 0)
		if errno != 0 || size >= pipeSize {
			return
		}
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSize, pipeSize)
	})
}
