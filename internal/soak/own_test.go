package soak

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// hogMemory and hogCPU are what hog takes.
const (
	hogMemory = 64 << 20
	hogCPU    = 300 * time.Millisecond
)

// hog touches hogMemory bytes and spins until the process has used hogCPU.
func hog() {
	b := make([]byte, hogMemory)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	x := 0
	for {
		for i := range 1 << 20 {
			x += i * i
		}
		if d, err := cputime.Process(os.Getpid()); err != nil || d >= hogCPU {
			break
		}
	}
	runtime.KeepAlive(b)
	sink = x
}

var sink int

// TestBridgedMeasuresTheBridgeOnly: what Bridged reports as the bridge's CPU
// time and peak RSS is the bridge process's own, not its children's. The
// "bridge" here is a shell that first runs a child taking 300 ms of CPU and
// 64 MiB, then the agent, and waits for both: a process's rusage as it is
// reaped counts the children it reaped, and its peak RSS is theirs when
// theirs is larger.
func TestBridgedMeasuresTheBridgeOnly(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "bridge.sh")
	script := "#!/bin/sh\nSOAK_HOG=1 " + strconv.Quote(exe) + " || exit 1\n" +
		"while [ \"$1\" != -- ]; do shift; done\nshift\n\"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := config(t, wrapper, Prose, 2000)
	res, err := Bridged(cfg, None)
	if err != nil {
		t.Fatal(err)
	}
	if res.Messages < 2000 {
		t.Fatalf("%d messages read, want 2000", res.Messages)
	}
	if res.CPU >= hogCPU/3 {
		t.Errorf("the bridge's CPU time is %v: its children's (%v and the agent's) are counted", res.CPU, hogCPU)
	}
	if mb := res.PeakRSSKB >> 10; res.PeakRSSKB <= 0 || mb >= hogMemory>>21 {
		t.Errorf("the bridge's peak RSS is %d KiB: its child's (%d MiB) is counted, or none was read", res.PeakRSSKB, hogMemory>>20)
	}
}
