package cputime

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestProcess: a process's CPU time grows with the work it does, counted
// in clock ticks, and a process that is gone is an error.
func TestProcess(t *testing.T) {
	before, err := Process(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// Each busy loop takes milliseconds of CPU; on a loaded machine they
	// may be spread over more wall time.
	for start := time.Now(); time.Since(start) < 10*time.Second; {
		busy()
		if after, err := Process(os.Getpid()); err != nil || after > before {
			if err != nil {
				t.Fatal(err)
			}
			if after%clockTick != 0 {
				t.Errorf("CPU time %v is not a whole number of clock ticks", after)
			}
			return
		}
	}
	t.Errorf("10 s of busy loops left the process's CPU time at %v", before)
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
