package crashtest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"
)

// errorList records what Run reports.
type errorList struct {
	mu   sync.Mutex
	errs []string
}

func (l *errorList) Helper() {}

func (l *errorList) Errorf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, fmt.Sprintf(format, args...))
}

// TestRunMakesEveryRunOnce: each run is made once, by the worker its
// number names, with that worker's source; nothing is reported.
func TestRunMakesEveryRunOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		var mu sync.Mutex
		var runs []int
		sources := map[int]*rand.Rand{}
		var l errorList
		Run(&l, n, func(worker, run int, rng *rand.Rand) error {
			mu.Lock()
			defer mu.Unlock()
			if worker != run%Workers {
				t.Errorf("n=%d: run %d made by worker %d", n, run, worker)
			}
			if s, ok := sources[worker]; ok && s != rng {
				t.Errorf("n=%d: worker %d drew from two sources", n, worker)
			}
			sources[worker] = rng
			runs = append(runs, run)
			return nil
		})
		slices.Sort(runs)
		if want := seq(n); !slices.Equal(runs, want) {
			t.Errorf("n=%d: runs made %v, want %v", n, runs, want)
		}
		if len(l.errs) != 0 {
			t.Errorf("n=%d: reported %q", n, l.errs)
		}
		if n >= Workers && (len(sources) != Workers || sources[0] == sources[1]) {
			t.Errorf("n=%d: %d sources for %d workers", n, len(sources), Workers)
		}
	}
}

// TestRunStopsAWorkerOnError: a run that fails is reported with its
// number, and its worker makes no more runs; the other worker goes on.
func TestRunStopsAWorkerOnError(t *testing.T) {
	t.Setenv(SeedEnv, "7")
	var mu sync.Mutex
	var runs []int
	var l errorList
	Run(&l, 10, func(worker, run int, rng *rand.Rand) error {
		mu.Lock()
		runs = append(runs, run)
		mu.Unlock()
		if run == 2 {
			return errors.New("the log does not verify")
		}
		return nil
	})
	slices.Sort(runs)
	if want := []int{0, 1, 2, 3, 5, 7, 9}; !slices.Equal(runs, want) {
		t.Errorf("runs made %v, want %v", runs, want)
	}
	if want := []string{"run 2: the log does not verify (" + SeedEnv + "=7 repeats the draws)"}; !slices.Equal(l.errs, want) {
		t.Errorf("reported %q, want %q", l.errs, want)
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestExecutable: a crash test starts the running test binary again.
func TestExecutable(t *testing.T) {
	exe := Executable(t)
	fi, err := os.Stat(exe)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("Executable() = %q (%v): not an executable file", exe, err)
	}
}
