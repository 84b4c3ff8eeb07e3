package auditweb

import (
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
	"github.com/acp-bridge/acp-bridge/internal/benchstream"
)

// writeBigLog writes a busy log of n events (audittest.WriteBusyLog) in
// dir and returns its path.
func writeBigLog(tb testing.TB, dir string, n int) string {
	tb.Helper()
	path := filepath.Join(dir, "audit.jsonl")
	audittest.WriteBusyLog(tb, path, n)
	return path
}

// BenchmarkOpenBigLog measures what audit serve does before it prints its
// URL (New: index the log, summarize its sessions) on a 100,000-event
// log, the peak heap while doing it (heap objects, sampled every
// millisecond), the heap once ready and the CPU time of the process
// (user and system, all threads, the collector's included) per open.
func BenchmarkOpenBigLog(b *testing.B) {
	path := writeBigLog(b, b.TempDir(), 100_000)
	var peak, live uint64
	var cpu time.Duration
	b.ResetTimer()
	for b.Loop() {
		runtime.GC()
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			// runtime/metrics, unlike ReadMemStats, does not stop the world.
			m := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			for {
				metrics.Read(m)
				peak = max(peak, m[0].Value.Uint64())
				select {
				case <-done:
					return
				case <-tick.C:
				}
			}
		})
		cpu0 := benchstream.CPUTime()
		s, err := New(Options{Paths: []string{path}})
		cpu += benchstream.CPUTime() - cpu0
		close(done)
		wg.Wait()
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		live = ms.HeapAlloc
		runtime.KeepAlive(s)
		for _, x := range s.logs {
			for _, xf := range x.files {
				xf.f.Close()
			}
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(live)/(1<<20), "ready-heap-MB")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// TestFirstSummariesTallied checks that the summaries tallied while the
// log is first indexed are those audit.Sessions makes of the records read
// again.
func TestFirstSummariesTallied(t *testing.T) {
	path := writeBigLog(t, t.TempDir(), 300)
	tallied, reread := newLogIndex(path), newLogIndex(path)
	tallied.collecting = true
	for _, x := range []*logIndex{tallied, reread} {
		if _, err := x.refresh(); err != nil {
			t.Fatal(err)
		}
		if err := x.ensureSummaries(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			for _, xf := range x.files {
				xf.f.Close()
			}
		}()
	}
	if len(tallied.groups) != 10 || len(reread.groups) != 10 {
		t.Fatalf("groups: %d tallied, %d read again; want 10", len(tallied.groups), len(reread.groups))
	}
	for i, g := range tallied.groups {
		if want := reread.groups[i]; !reflect.DeepEqual(g.summary, want.summary) || g.cwd != want.cwd {
			t.Errorf("session %s:\ntallied %+v cwd %q\nread again %+v cwd %q", g.session, g.summary, g.cwd, want.summary, want.cwd)
		}
	}
}
