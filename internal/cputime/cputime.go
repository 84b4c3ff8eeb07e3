// Package cputime measures the CPU time a function takes on the calling
// goroutine's thread, for tests that bound how much work an input costs
// (a parser linear in its input, a refusal before the expensive part).
// Wall time is the wrong measure for that on a loaded machine: it grows
// with every other process waiting for a core, and a bound on it races the
// scheduler. The CPU time of one thread does not count the time the thread
// waits. Benchmarks that compare processes (an agent alone, the same agent
// behind the bridge) read a whole process's CPU time with Process.
//
//	if d := cputime.Of(func() { parse(huge) }); d > time.Second {
//		t.Errorf("parsing took %v of CPU", d)
//	}
package cputime

import (
	"runtime"
	"time"
)

// Of runs f locked to the calling goroutine's OS thread and returns the
// user and system CPU time that thread spent in it. Work f hands to other
// goroutines, and the garbage collector's background workers, are not
// counted. Where a thread's usage cannot be read (outside Linux), Of
// returns f's wall time.
func Of(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	before, ok := threadTime()
	f()
	after, ok2 := threadTime()
	if !ok || !ok2 {
		return time.Since(start)
	}
	return after - before
}
