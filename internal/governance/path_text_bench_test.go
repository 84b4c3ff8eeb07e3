package governance

import (
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/benchstream"
)

// soakPaths are paths as the soak's decisions check them: a location in
// its scratch workspace, the workspace itself, and the policy's file.
var soakPaths = []string{"/tmp/acp-soak-2290939718/all-2268214197/src/file12.go", "/tmp/acp-soak-2290939718/all-2268214197",
	"/work/main/GOVERNANCE.md"}

// BenchmarkCleanAbsolute asks cleanAbsolute of each of soakPaths.
// Compare cpu-ns/op.
func BenchmarkCleanAbsolute(b *testing.B) {
	defer reportCPU(b, benchstream.CPUTime())
	for b.Loop() {
		for _, p := range soakPaths {
			if !cleanAbsolute(p) {
				b.Fatal(p)
			}
		}
	}
}

// BenchmarkCheckPathText asks checkPathText of each of soakPaths.
// Compare cpu-ns/op.
func BenchmarkCheckPathText(b *testing.B) {
	defer reportCPU(b, benchstream.CPUTime())
	for b.Loop() {
		for _, p := range soakPaths {
			if checkPathText(p) != nil {
				b.Fatal(p)
			}
		}
	}
}

// reportCPU reports the process's CPU time since cpu0 per iteration.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64((benchstream.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
