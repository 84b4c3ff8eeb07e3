package acpwire

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// fGetPipeSize is F_GETPIPE_SZ from <linux/fcntl.h>.
const fGetPipeSize = 1032

// pipeTakes returns a function reporting whether a write of n bytes to w
// would complete now without waiting for the reader, when w is a pipe whose
// size and fill the kernel reports; otherwise it returns nil.
//
// It answers yes only while the pipe is empty, for writes no larger than
// the pipe. The count of unread bytes says nothing about room otherwise: the
// kernel gives a write a new page unless what it adds fits the last page, so
// a pipe can be full of pages each holding a small message while most of
// its byte count is free. The answer holds as long as nobody else writes to
// the pipe in between.
func pipeTakes(w io.Writer) func(n int) bool {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return nil
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	size := 0
	_ = sc.Control(func(fd uintptr) {
		n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, fGetPipeSize, 0)
		if errno == 0 {
			size = int(n)
		}
	})
	if size <= 0 {
		return nil
	}
	return func(n int) bool {
		if n > size {
			return false
		}
		empty := false
		_ = sc.Control(func(fd uintptr) {
			var unread int32
			_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&unread)))
			empty = errno == 0 && unread == 0
		})
		return empty
	}
}
