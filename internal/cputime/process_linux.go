package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// processClock returns the CPU time process pid has used so far, all its
// threads together and none of its children, in nanoseconds: the clock
// clock_getcpuclockid(3) names for pid (the kernel's CPUCLOCK_SCHED of the
// process, (~pid)<<3 | 2), which any process may read.
func processClock(pid int) (time.Duration, bool) {
	if pid <= 0 {
		return 0, false
	}
	id := (^uintptr(pid) << 3) | 2
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
