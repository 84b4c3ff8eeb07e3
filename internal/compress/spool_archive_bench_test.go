//go:build linux

package compress

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// BenchmarkSaveArchive saves the archive of a session that spooled 82 MiB
// of agent text (as acp-soak's 200,000-message turn does: the spool's
// second segment holds 18 MiB) at a tier-3 checkpoint, and reports the
// CPU time (user and system, of the saving thread alone) the save took:
// cpu-ms/op. Spooling the session is setup, not measured.
func BenchmarkSaveArchive(b *testing.B) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	lit := []byte(strconv.Quote(strings.Repeat("ABCDEFGHabcdefgh0123456789+/", 37)[:1024]))
	cpu := spooledThreadCPU(b, func(r *Recorder) {
		r.UserMessage(at, "the intent")
		for range 82 << 10 {
			r.AgentChunk(at, "Agent", lit)
		}
		r.Release()
	}, func(r *Recorder, st *Store) {
		if _, err := r.saveArchive(st, "s", at); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}

// spooledThreadCPU runs b's loop over a new recorder of session "s"
// spooling into a new store each round: setup, not measured, then
// measure, whose CPU time (user and system, of its thread alone: see
// cputime.Of) it returns summed over the rounds. Removing the spool is not
// measured.
func spooledThreadCPU(b *testing.B, setup func(*Recorder), measure func(*Recorder, *Store)) time.Duration {
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		st := NewStore(b.TempDir(), nil)
		r := NewRecorder("s", "/r")
		r.SpoolTo(st.spoolBase("s"))
		setup(r)
		b.StartTimer()
		cpu += cputime.Of(func() { measure(r, st) })
		b.StopTimer()
		if err := r.removeSpool(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	return cpu
}
