package cputime

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of utime and stime in /proc/PID/stat (USER_HZ,
// 100 on Linux).
const clockTick = 10 * time.Millisecond

// Process returns the user and system CPU time process pid itself has
// used so far, not counting its children: for benchmarks that compare what
// whole processes (an agent, the bridge) cost. On Linux it reads the
// process's CPU clock, to the nanosecond; elsewhere /proc/PID/stat, in
// steps of 10 ms. Where neither can be read, or the process is gone, it
// returns an error.
//
// A process's rusage as its parent reaps it (os.ProcessState.SysUsage) is
// not this: it adds the CPU time of every child the process reaped, so the
// bridge's would count its agent's.
func Process(pid int) (time.Duration, error) {
	if d, ok := processClock(pid); ok {
		return d, nil
	}
	return procStat(pid)
}

// procStat reads utime and stime from /proc/PID/stat.
func procStat(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name, in parentheses, may hold spaces and parentheses:
	// the fields after it start after its last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 > len(s) {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields after the command name, want 13 or more", pid, len(f))
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: utime %q, stime %q", pid, f[11], f[12])
	}
	return time.Duration(user+sys) * clockTick, nil
}
