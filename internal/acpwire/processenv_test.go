package acpwire

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestProcessesWithEnv: a process is found by a whole entry of its
// environment, not by a part of one, and not once it has exited.
func TestProcessesWithEnv(t *testing.T) {
	mark := "ACPWIRETEST_MARK=" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 10)
	cmd := exec.Command("sleep", "60")
	cmd.Env = append(os.Environ(), "X"+mark+"-longer", mark)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	for _, tt := range []struct {
		entry string
		want  bool
	}{
		{mark, true},
		{mark[:len(mark)-1], false},
		{mark[1:], false},
		{"X" + mark + "-longer", true},
	} {
		if got := slices.Contains(ProcessesWithEnv(tt.entry), pid); got != tt.want {
			t.Errorf("ProcessesWithEnv(%q) lists the sleep: %v, want %v", tt.entry, got, tt.want)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if pids := ProcessesWithEnv(mark); len(pids) != 0 {
		t.Errorf("after the sleep exited ProcessesWithEnv lists %v", pids)
	}
}
