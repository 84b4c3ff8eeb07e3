//go:build linux

package compress

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSaveArchive saves the archive of a session that spooled 82 MiB
// of agent text (as acp-soak's 200,000-message turn does: the spool's
// second segment holds 18 MiB) at a tier-3 checkpoint, and reports the
// CPU time (user and system, of the saving thread alone) the save took:
// cpu-ms/op. Spooling the session is setup, not measured.
func BenchmarkSaveArchive(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	lit := []byte(strconv.Quote(strings.Repeat("ABCDEFGHabcdefgh0123456789+/", 37)[:1024]))
	var cpu time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		dir := b.TempDir()
		st := NewStore(dir, nil)
		r := NewRecorder("s", "/r")
		r.SpoolTo(st.spoolBase("s"))
		r.UserMessage(at, "the intent")
		for range 82 << 10 {
			r.AgentChunk(at, "Agent", lit)
		}
		r.Release()
		b.StartTimer()
		before := threadCPU(b)
		if _, err := r.saveArchive(st, "s", at); err != nil {
			b.Fatal(err)
		}
		cpu += threadCPU(b) - before
		b.StopTimer()
		if err := r.removeSpool(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}

// threadCPU returns the calling thread's CPU time so far, user and system.
func threadCPU(b *testing.B) time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		b.Fatal(fmt.Errorf("getrusage: %v", err))
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
