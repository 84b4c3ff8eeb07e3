package acpwire

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestAgentStdoutPipeGrown checks that the pipe the agent writes its
// messages to gets the larger buffer (or at least the default, where the
// system's pipe-max-size is lower).
func TestAgentStdoutPipeGrown(t *testing.T) {
	agent, err := StartAgent(selfAgent(t, "stubborn"))
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Stop(100*time.Millisecond, time.Second)
	f, ok := agent.stdout.(*os.File)
	if !ok {
		t.Fatalf("agent stdout is a %T, want *os.File", agent.stdout)
	}
	const fGetPipeSize = 1032
	sc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var size uintptr
	var errno syscall.Errno
	if err := sc.Control(func(fd uintptr) {
		size, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, fGetPipeSize, 0)
	}); err != nil || errno != 0 {
		t.Fatal(err, errno)
	}
	want := pipeSize
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
		var max int
		if _, err := fmt.Sscan(string(b), &max); err == nil && max < want {
			want = 64 << 10
		}
	}
	if int(size) < want {
		t.Errorf("agent stdout pipe holds %d bytes, want %d", size, want)
	}
}
