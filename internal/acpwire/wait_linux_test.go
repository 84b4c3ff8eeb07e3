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
	sc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int32
	var errno syscall.Errno
	if err := sc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil {
		t.Fatal(err)
	}
	if errno != 0 {
		t.Fatalf("FIONREAD: %v", errno)
	}
	return int(n)
}
