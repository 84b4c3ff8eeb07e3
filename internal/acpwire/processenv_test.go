package acpwire

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// TestProcDirs: procDirs lists, sorted, every process directory that
// filepath.Glob("/proc/[0-9]*") lists both before and after it (a process
// may start or end in between), its own process's among them, and nothing
// but process directories.
func TestProcDirs(t *testing.T) {
	before, _ := filepath.Glob("/proc/[0-9]*")
	got := procDirs()
	after, _ := filepath.Glob("/proc/[0-9]*")
	if !slices.IsSorted(got) {
		t.Errorf("procDirs is not sorted: %v", got)
	}
	for _, d := range before {
		if slices.Contains(after, d) && !slices.Contains(got, d) {
			t.Errorf("procDirs misses %s, which Glob lists before and after it", d)
		}
	}
	if own := "/proc/" + strconv.Itoa(os.Getpid()); !slices.Contains(got, own) {
		t.Errorf("procDirs misses the test's own %s", own)
	}
	for _, d := range got {
		if _, err := strconv.Atoi(strings.TrimPrefix(d, "/proc/")); err != nil {
			t.Errorf("procDirs lists %s, not a process directory", d)
		}
	}
}
