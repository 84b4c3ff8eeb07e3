package cputime

import (
	"syscall"
	"time"
)

// threadTime returns the user and system CPU time of the calling thread.
func threadTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
