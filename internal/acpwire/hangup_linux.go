package acpwire

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// Poll events from <poll.h>.
const (
	pollErr   = 0x8
	pollHup   = 0x10
	pollRdHup = 0x2000
)

// pollFd is struct pollfd.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

// hangupProbe returns a function that reports, without waiting, whether
// the writing end of r is gone (every writer of a pipe closed, or the peer
// of a socket shut down its sending side); it returns nil when r is not a
// file the kernel can tell that for. It does not read: bytes still waiting
// in r do not hide the hang-up. It reports false once r is closed.
func hangupProbe(r io.Reader) func() bool {
	sc := rawFileOf(r, os.ModeNamedPipe|os.ModeSocket)
	if sc == nil {
		return nil
	}
	return func() bool {
		hup := false
		_ = sc.Control(func(fd uintptr) {
			p := pollFd{fd: int32(fd), events: pollRdHup}
			var now syscall.Timespec // a zero timeout: look, do not wait
			n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&p)), 1, uintptr(unsafe.Pointer(&now)), 0, 0, 0)
			hup = errno == 0 && n == 1 && p.revents&(pollHup|pollRdHup|pollErr) != 0
		})
		return hup
	}
}
