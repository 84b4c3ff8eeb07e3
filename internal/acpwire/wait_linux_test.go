package acpwire

import (
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// unread returns how many bytes wait in the pipe f reads from: the
// observable sign that a writer has put bytes in (more than 0) or that the
// reader has taken them (0).
func unread(t testing.TB, f *os.File) int {
	t.Helper()
	var n int32
	syscallOn(t, f, "FIONREAD", func(fd uintptr) (errno syscall.Errno) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
		return errno
	})
	return int(n)
}

// syscallOn runs call on f's descriptor and fails t if it cannot or call
// returns an error number; what names the call.
func syscallOn(t testing.TB, f *os.File, what string, call func(fd uintptr) syscall.Errno) {
	t.Helper()
	sc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var errno syscall.Errno
	if err := sc.Control(func(fd uintptr) { errno = call(fd) }); err != nil {
		t.Fatal(err)
	}
	if errno != 0 {
		t.Fatalf("%s: %v", what, errno)
	}
}
