package soak

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The test binary doubles as the fake agent, and as a process that takes
// CPU time and memory:
//
//	SOAK_AGENT=mix,messages  serve ServeAgent on stdin and stdout
//	SOAK_HOG=1               touch 64 MiB and spin for 300 ms of CPU time
func TestMain(m *testing.M) {
	if os.Getenv("SOAK_HOG") != "" {
		hog()
		os.Exit(0)
	}
	if v := os.Getenv("SOAK_AGENT"); v != "" {
		mixName, n, _ := strings.Cut(v, ",")
		mix, err := ParseMix(mixName)
		messages, nerr := strconv.Atoi(n)
		if err != nil || nerr != nil {
			fmt.Fprintln(os.Stderr, "SOAK_AGENT:", err, nerr)
			os.Exit(2)
		}
		if err := ServeAgent(os.Stdin, os.Stdout, AgentConfig{Mix: mix, Messages: messages}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the bridge buildBridge built, once per test process: each run
// of TestSoak (-count, -cpu) measures the same binary, and the link does
// not cost each of them again.
var built struct {
	once sync.Once
	dir  string // temporary directory holding it, removed by TestMain
	path string
	err  error
}

// buildBridge builds cmd/acp-bridge into a temporary directory, the first
// time it is called: the soak measures the built bridge, as an IDE runs
// it. ACP_SOAK_BRIDGE names an already built one instead (to hold another
// build to the bounds).
func buildBridge(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("ACP_SOAK_BRIDGE"); p != "" {
		return p
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "acp-soak-bridge"); built.err != nil {
			return
		}
		out := filepath.Join(built.dir, "acp-bridge")
		gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
		cmd := exec.Command(gobin, "build", "-o", out, "github.com/acp-bridge/acp-bridge/cmd/acp-bridge")
		if b, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("building acp-bridge: %v\n%s", err, b)
			return
		}
		built.path = out
	})
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.path
}

// config returns a run of one turn of n messages of mix through bridge.
func config(tb testing.TB, bridge string, mix Mix, n int) Config {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	policy, err := filepath.Abs("../../GOVERNANCE.md")
	if err != nil {
		tb.Fatal(err)
	}
	return Config{
		Bridge: bridge, Policy: policy, Dir: tb.TempDir(),
		Agent: []string{"env", "SOAK_AGENT=" + mix.String() + "," + strconv.Itoa(n), exe},
	}
}

// Bounds TestSoak holds the bridge to.
const (
	// maxPeakRSSMB bounds the bridge's peak RSS with every feature on.
	maxPeakRSSMB = 100
	// maxCompressCPURatio bounds compression's CPU per message as a
	// multiple of the pass-through bridge's in the same run (before the
	// bounds of issue 20 it was 40 to 60).
	maxCompressCPURatio = 5
	// maxAllCPURatio bounds the CPU per message with every feature on as a
	// multiple of the pass-through bridge's in the same run. It guards
	// against a regression, not the 3x target of docs/performance.md: over
	// the test's 20,000 messages, start-up included, the least of three
	// runs each measured 4.9-6.7x (1.9-2.8 us a message pass-through
	// against 10.7-13.8 us) on a quiet machine, and a single run 7.7x
	// under a load average of 10.
	maxAllCPURatio = 9
	// cpuRounds is how many times each feature set runs: its CPU per
	// message is the least of them.
	cpuRounds = 3
)

// TestSoak streams one turn of 20,000 prose-like and of 20,000 run-like
// messages through the built bridge, pass-through, with compression, and
// with every feature on, and fails when the bridge's peak RSS or its CPU
// per message (compression's, everything's) is over its bound. scripts/soak.sh runs the long versions.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Log("short mode: one mix")
	}
	bridge := buildBridge(t)
	mixes := []Mix{Prose, Runs}
	if testing.Short() {
		mixes = mixes[:1]
	}
	const n = 20000
	for _, mix := range mixes {
		t.Run(mix.String(), func(t *testing.T) {
			cfg := config(t, bridge, mix, n)
			direct, err := Direct(cfg)
			if err != nil {
				t.Fatal(err)
			}
			// Each feature set runs cpuRounds times, in turns, and its
			// CPU per message is its least: other work on the machine
			// adds to a bridge's CPU (its runtime spins and wakes more),
			// never takes from it. Every run's peak RSS is held to the bound.
			perMsg := map[Features]float64{}
			for round := range cpuRounds {
				for _, f := range []Features{None, Compress, All} {
					cfg.Dir = t.TempDir()
					res, err := Bridged(cfg, f)
					if err != nil {
						t.Fatalf("%s: %v", f, err)
					}
					if res.Messages < n {
						t.Fatalf("%s: %d messages read, want at least %d", f, res.Messages, n)
					}
					cpu := float64(res.CPU.Microseconds()) / float64(res.Messages)
					if round == 0 || cpu < perMsg[f] {
						perMsg[f] = cpu
					}
					peak := float64(res.PeakRSSKB) / 1024
					t.Logf("%-8s peak RSS %5.1f MB, CPU %6.2f us/message, stream %.2fx the direct pipe's", f, peak, cpu, res.Wall.Seconds()/direct.Wall.Seconds())
					if peak > maxPeakRSSMB {
						t.Errorf("%s: peak RSS %.1f MB, over the bound of %d MB", f, peak, maxPeakRSSMB)
					}
				}
			}
			if r := perMsg[Compress] / perMsg[None]; r > maxCompressCPURatio {
				t.Errorf("compression's CPU per message is %.1fx the pass-through bridge's (%.2f against %.2f us), over the bound of %dx",
					r, perMsg[Compress], perMsg[None], maxCompressCPURatio)
			}
			if r := perMsg[All] / perMsg[None]; r > maxAllCPURatio {
				t.Errorf("the CPU per message with every feature on is %.1fx the pass-through bridge's (%.2f against %.2f us), over the bound of %dx",
					r, perMsg[All], perMsg[None], maxAllCPURatio)
			}
		})
	}
}

// BenchmarkSoak runs the soak matrix of docs/performance.md at the size
// -benchtime sets (b.N messages per turn), reporting per feature set the
// peak RSS, CPU per message and the stream ratio against a direct pipe.
//
//	go test ./internal/soak -run '^$' -bench Soak -benchtime 200000x
func BenchmarkSoak(b *testing.B) {
	bridge := buildBridge(b)
	for _, mix := range []Mix{Prose, Runs} {
		for _, f := range AllFeatures {
			b.Run(mix.String()+"/"+f.String(), func(b *testing.B) {
				cfg := config(b, bridge, mix, b.N)
				direct, err := Direct(cfg)
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				res, err := Bridged(cfg, f)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				b.ReportMetric(float64(res.PeakRSSKB)/1024, "peak-RSS-MB")
				b.ReportMetric(float64(res.CPU.Nanoseconds())/float64(res.Messages), "bridge-cpu-ns/msg")
				b.ReportMetric(res.Wall.Seconds()/direct.Wall.Seconds(), "bridged/direct")
			})
		}
	}
}
