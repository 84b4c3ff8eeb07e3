package acpwire

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// startTree starts a shell with two sleeping children, one of which has a
// child of its own, and returns the shell's pid once all four processes
// run. The processes are killed when the test ends.
func startTree(tb testing.TB) int {
	tb.Helper()
	cmd := exec.Command("sh", "-c", `sleep 30 & sh -c 'sleep 30 & wait' & wait`)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		for _, p := range descendantsByScan(cmd.Process.Pid) {
			if proc, err := os.FindProcess(p); err == nil {
				_ = proc.Kill()
			}
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(5 * time.Second)
	for len(descendantsByScan(cmd.Process.Pid)) < 3 {
		if time.Now().After(deadline) {
			tb.Fatalf("the tree did not start: %v", descendantsByScan(cmd.Process.Pid))
		}
		time.Sleep(5 * time.Millisecond)
	}
	return cmd.Process.Pid
}

// TestDescendantsByChildren checks the walk through the kernel's lists of
// children against the scan of every process: the same tree, three deep.
func TestDescendantsByChildren(t *testing.T) {
	root := startTree(t)
	got, ok := descendantsByChildren(root)
	if !ok {
		t.Skip("this kernel keeps no /proc/PID/task/TID/children lists")
	}
	want := descendantsByScan(root)
	slices.Sort(got)
	slices.Sort(want)
	if len(want) != 3 || !slices.Equal(got, want) {
		t.Fatalf("by children %v, by scan %v; want the same 3 processes", got, want)
	}
	if d := descendants(root); len(d) != 3 {
		t.Fatalf("descendants = %v, want 3 processes", d)
	}
	if d, ok := descendantsByChildren(1 << 30); !ok || len(d) != 0 {
		t.Fatalf("a process that does not exist: %v, %v; want none, true", d, ok)
	}
}

// BenchmarkDescendants compares the two ways of finding the agent's tree,
// which the bridge does every 500 ms while the agent runs.
func BenchmarkDescendants(b *testing.B) {
	root := startTree(b)
	b.Run("children", func(b *testing.B) {
		for b.Loop() {
			descendantsByChildren(root)
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			descendantsByScan(root)
		}
	})
}
