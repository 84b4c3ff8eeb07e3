package soak

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of utime and stime in /proc/PID/stat (USER_HZ,
// 100 on Linux).
const clockTick = 10 * time.Millisecond

// procCPU returns the user plus system CPU time process pid has used so
// far, or -1 if it cannot be read.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 > len(s) {
		return -1
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 13 {
		return -1
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	return time.Duration(user+sys) * clockTick
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
