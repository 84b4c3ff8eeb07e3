package acpwire

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestAgentPipesGrown checks that the pipes the agent writes its messages
// to and reads the IDE's from get the larger buffer (or at least the
// default, where the system's pipe-max-size is lower).
func TestAgentPipesGrown(t *testing.T) {
	agent, err := StartAgent(selfAgent(t, "stubborn"))
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Stop(100*time.Millisecond, time.Second)
	want := pipeSize
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
		var max int
		if _, err := fmt.Sscan(string(b), &max); err == nil && max < want {
			want = 64 << 10
		}
	}
	for name, end := range map[string]any{"stdout": agent.stdout, "stdin": agent.stdin} {
		f, ok := end.(*os.File)
		if !ok {
			t.Fatalf("agent %s is a %T, want *os.File", name, end)
		}
		const fGetPipeSize = 1032
		var size uintptr
		syscallOn(t, f, "F_GETPIPE_SZ", func(fd uintptr) (errno syscall.Errno) {
			size, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, fGetPipeSize, 0)
			return errno
		})
		if int(size) < want {
			t.Errorf("agent %s pipe holds %d bytes, want %d", name, size, want)
		}
	}
}
