package soak

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"

	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// cpuAtExit waits for process pid, a child of this one, to exit, leaves it
// unreaped, and returns the CPU time it used itself: a process's CPU clock
// still reads while it is a zombie, and counts none of the children it
// reaped.
func cpuAtExit(pid int) (time.Duration, error) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			if err != nil {
				return 0, err
			}
			break
		}
	}
	return cputime.Process(pid)
}
