package acpwire

import (
	"context"
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

// TestClientPipeGrown checks that the pipe the bridge writes the IDE's
// messages to gets the larger buffer, from the default and from a size
// between the two.
func TestClientPipeGrown(t *testing.T) {
	pipeSizeOf := func(f *os.File) int {
		var size uintptr
		syscallOn(t, f, "F_GETPIPE_SZ", func(fd uintptr) (errno syscall.Errno) {
			size, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, fGetPipeSize, 0)
			return errno
		})
		return int(size)
	}
	for _, made := range []int{64 << 10, 256 << 10} {
		t.Run(fmt.Sprint(made), func(t *testing.T) {
			cr, cw := osPipe(t)
			ar, aw := osPipe(t)
			tcR, tcW := osPipe(t)
			taR, taW := osPipe(t)
			sc, err := tcW.SyscallConn()
			if err != nil {
				t.Fatal(err)
			}
			_ = sc.Control(func(fd uintptr) {
				_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSize, uintptr(made))
			})
			before := pipeSizeOf(tcW)
			want := max(before, min(pipeSize, maxPipeSize(t)))
			s, err := New(Options{}).Start(context.Background(), Endpoint{In: cr, Out: tcW}, Endpoint{In: ar, Out: taW})
			if err != nil {
				t.Fatal(err)
			}
			got := pipeSizeOf(tcW)
			cw.Close()
			aw.Close()
			<-s.Done(ClientToAgent)
			<-s.Done(AgentToClient)
			s.Close()
			for _, f := range []*os.File{cr, ar, tcR, tcW, taR, taW} {
				f.Close()
			}
			if got != want {
				t.Errorf("the pipe to the IDE holds %d bytes after the bridge started (%d before), want %d", got, before, want)
			}
		})
	}
}

// maxPipeSize is the system's pipe-max-size.
func maxPipeSize(t *testing.T) int {
	b, err := os.ReadFile("/proc/sys/fs/pipe-max-size")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if _, err := fmt.Sscan(string(b), &n); err != nil {
		t.Fatal(err)
	}
	return n
}
