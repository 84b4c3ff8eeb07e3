//go:build linux

package compress

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// BenchmarkSpoolChunks spools a turn as acp-soak's mix sends it: 160,000
// agent chunks of 1 B-1 KiB (80 MiB) with a tool call's two archive lines
// after every eight, and reports the CPU time (user and system, of the
// spooling thread alone) per chunk: cpu-ns/chunk. Removing the spool
// afterwards is not measured.
//
//	go test -run '^$' -bench BenchmarkSpoolChunks -benchtime 3x ./internal/compress
func BenchmarkSpoolChunks(b *testing.B) {
	const chunks = 160000
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	rng := rand.New(rand.NewPCG(1, 20))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	lits := make([][]byte, 257)
	for i := range lits {
		b := make([]byte, 1+rng.IntN(1024))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		lits[i] = []byte(strconv.Quote(string(b)))
	}
	cpu := spooledThreadCPU(b, func(r *Recorder) {
		r.UserMessage(at, "the intent")
	}, func(r *Recorder, _ *Store) {
		for i := range chunks {
			r.AgentChunk(at, "Agent", lits[i%len(lits)])
			if i%8 == 7 {
				r.Note(at, "Tool", "read [in_progress] read src/file7.go /r/src/file7.go")
				r.Note(at, "Tool", "read [completed] read src/file7.go /r/src/file7.go")
			}
		}
		r.Release()
	})
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*chunks), "cpu-ns/chunk")
}
