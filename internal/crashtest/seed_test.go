package crashtest

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"slices"
	"sync"
	"testing"
)

// draws makes n runs with the given seed variable and returns, per run,
// the first number its worker's source gave it, and what Run reported.
func draws(t *testing.T, seed string, n int, fail int) ([]uint64, []string) {
	t.Setenv(SeedEnv, seed)
	got := make([]uint64, n)
	var mu sync.Mutex
	var l errorList
	Run(&l, n, func(worker, run int, rng *rand.Rand) error {
		mu.Lock()
		defer mu.Unlock()
		got[run] = rng.Uint64()
		if run == fail {
			return errors.New("the log does not verify")
		}
		return nil
	})
	return got, l.errs
}

// TestRunSeedRepeats: a failed run is reported with the seed its worker
// drew from, and the same seed given in SeedEnv draws the same numbers, so
// a failure's kill moments can be drawn again.
func TestRunSeedRepeats(t *testing.T) {
	_, errs := draws(t, "", 6, 3)
	if len(errs) != 1 {
		t.Fatalf("reported %q, want one failure", errs)
	}
	m := regexp.MustCompile(`^run 3: the log does not verify \(` + SeedEnv + `=(\d+) repeats the draws\)$`).FindStringSubmatch(errs[0])
	if m == nil {
		t.Fatalf("reported %q, want the run, the error and the seed", errs[0])
	}
	first, _ := draws(t, m[1], 6, -1)
	again, _ := draws(t, m[1], 6, -1)
	if !slices.Equal(first, again) {
		t.Errorf("seed %s drew %v, then %v", m[1], first, again)
	}
	other, _ := draws(t, "12345", 6, -1)
	if slices.Equal(first, other) {
		t.Errorf("seeds %s and 12345 drew the same numbers %v", m[1], first)
	}
}

// TestRunRefusesABadSeed: a seed that is not a number is reported, and no
// run is made with a source the variable did not name.
func TestRunRefusesABadSeed(t *testing.T) {
	got, errs := draws(t, "soon", 4, -1)
	if want := []string{SeedEnv + `="soon" is not a whole number`}; !slices.Equal(errs, want) {
		t.Errorf("reported %q, want %q", errs, want)
	}
	if !slices.Equal(got, make([]uint64, 4)) {
		t.Errorf("runs made with a bad seed: %v", got)
	}
}
