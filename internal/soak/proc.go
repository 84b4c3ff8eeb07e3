package soak

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// procCPU returns the user plus system CPU time process pid has used so
// far, or -1 if it cannot be read.
func procCPU(pid int) time.Duration {
	d, err := cputime.Process(pid)
	if err != nil {
		return -1
	}
	return d
}

// procKB returns a VmXxx figure of /proc/PID/status ("VmRSS", "VmHWM") in
// KiB, or -1 if it cannot be read.
func procKB(pid int, field string) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return -1
			}
			n, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}
