package cputime

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// TestProcess: a process's CPU time grows with the work it does, to the
// nanosecond on Linux (the process clock), and /proc/PID/stat, the
// fallback, agrees with it to its 10 ms steps.
func TestProcess(t *testing.T) {
	before, err := Process(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// Each busy loop takes milliseconds of CPU; on a loaded machine they
	// may be spread over more wall time.
	var after time.Duration
	for start := time.Now(); after <= before+50*time.Millisecond; {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("20 s of busy loops moved the process's CPU time from %v to %v", before, after)
		}
		busy()
		if after, err = Process(os.Getpid()); err != nil {
			t.Fatal(err)
		}
	}
	stat, err := procStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if stat%clockTick != 0 {
		t.Errorf("/proc/PID/stat's CPU time %v is not a whole number of clock ticks", stat)
	}
	clock, err := Process(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" && clock%clockTick == 0 {
		t.Errorf("Process = %v, a whole number of clock ticks: not the process clock", clock)
	}
	// The clock read last; stat lags it by less than a tick per thread.
	if d := clock - stat; d < -clockTick || d > time.Duration(runtime.NumCPU()+8)*clockTick {
		t.Errorf("Process = %v, /proc/PID/stat %v: they disagree by %v", clock, stat, d)
	}
}

// TestProcessNotChildren: the CPU time of a child the process started and
// reaped is the child's, not the process's (as it would be in the rusage
// its parent reads when it reaps it).
func TestProcessNotChildren(t *testing.T) {
	before, err := Process(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command("sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	after, err := Process(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	spent := child.ProcessState.UserTime() + child.ProcessState.SystemTime()
	if spent < 20*time.Millisecond {
		t.Fatalf("the child took only %v of CPU: too little to tell", spent)
	}
	if grew := after - before; grew >= spent/2 {
		t.Errorf("the process's CPU time grew by %v while its child took %v: the child's is counted", grew, spent)
	}
}

func TestProcessGone(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if d, err := Process(cmd.Process.Pid); err == nil {
		t.Errorf("Process of the exited pid %d = %v, want an error", cmd.Process.Pid, d)
	}
}
