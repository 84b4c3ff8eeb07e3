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
	sc := rawFileOf(w, os.ModeNamedPipe)
	if sc == nil {
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

// rawFileOf returns the raw descriptor access of x when x is a file whose
// mode has one of the bits in kinds (a pipe, a socket), nil otherwise.
func rawFileOf(x any, kinds os.FileMode) syscall.RawConn {
	f, ok := x.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&kinds == 0 {
		return nil
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	return sc
}
