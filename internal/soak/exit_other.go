//go:build !linux

package soak

import (
	"errors"
	"time"
)

// cpuAtExit needs waitid's WNOWAIT and a process CPU clock, which the soak
// reads on Linux only.
func cpuAtExit(int) (time.Duration, error) {
	return 0, errors.New("the soak measures the bridge's CPU time on Linux only")
}
