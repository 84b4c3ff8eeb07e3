// Package crashtest runs the runs of a crash-safety test: a process killed
// at a random moment, run after run, each run checking what the killed
// process left behind (the audit package's log writer, the whole bridge
// in cmd/acp-bridge). It shares the runs over Workers goroutines, so that
// a kill often lands while another run is busy, as on a loaded machine.
package crashtest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// SeedEnv names the environment variable that gives Run its seed; a
// failed run's report names the seed it drew from, so that the same kill
// moments can be drawn again.
const SeedEnv = "ACP_BRIDGE_CRASH_SEED"

// Workers is how many runs go at once.
const Workers = 2

// Runs is how many runs a crash test makes: 100, or 20 with -short.
func Runs() int {
	if testing.Short() {
		return 20
	}
	return 100
}

// Executable returns the path of the running test binary, which a crash
// test starts again as the process it kills; it fails t when there is none.
func Executable(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// Reporter is the part of a *testing.T that Run reports a failed run to.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// Run calls each for the runs 0 to n-1 and returns once they have all
// returned. Worker w (0 to Workers-1) makes the runs w, w+Workers,
// w+2*Workers ... in turn, drawing the randomness of its runs (the moment
// of the kill) from a source of its own, seeded from SeedEnv or, without
// it, from the clock so that every test run kills at other moments. A run
// that returns an error is reported to t as "run N: err (SEED=S repeats
// the draws)", and its worker makes no more runs.
func Run(t Reporter, n int, each func(worker, run int, rng *rand.Rand) error) {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(SeedEnv); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Errorf("%s=%q is not a whole number", SeedEnv, s)
			return
		}
		seed = v
	}
	var wg sync.WaitGroup
	for w := range Workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(seed, uint64(w)))
			for run := w; run < n; run += Workers {
				if err := each(w, run, rng); err != nil {
					t.Errorf("run %d: %v", run, fmt.Errorf("%w (%s=%d repeats the draws)", err, SeedEnv, seed))
					return
				}
			}
		})
	}
	wg.Wait()
}
