package leakcheck

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a testing.TB that runs its cleanups when told to and keeps
// the failures they report.
type recorder struct {
	testing.TB
	cleanups []func()
	errors   []string
}

func (r *recorder) Helper()          {}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) finish() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

// leakTimeout is the wait of the cases that expect a leak, shortened so
// that they do not wait the full timeout. Only they shorten it: a case that
// expects no report keeps the full wait, since a goroutine that has ended
// its work may still wait to be scheduled to exit, on a loaded machine for
// longer than any short bound ("nothing left" failed that way under -cpu
// 1,2 with 100 ms).
const leakTimeout = 100 * time.Millisecond

// waitFor sets the timeout of a case: leakTimeout if it expects a leak,
// full otherwise.
func waitFor(wantLeak bool, full time.Duration) {
	timeout = full
	if wantLeak {
		timeout = leakTimeout
	}
}

func TestCheck(t *testing.T) {
	defer func(d time.Duration) { timeout = d }(timeout)
	full := timeout
	tests := []struct {
		name     string
		run      func(stop chan struct{}) // starts what the test checks
		wantLeak bool
	}{
		{name: "nothing started", run: func(chan struct{}) {}},
		{name: "goroutine ended", run: func(chan struct{}) {
			done := make(chan struct{})
			go func() { <-done }()
			close(done)
		}},
		{name: "goroutine left running", run: func(stop chan struct{}) { startLeaky(stop) }, wantLeak: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			waitFor(tt.wantLeak, full)
			r := &recorder{TB: t}
			Check(r)
			Check(r) // a second call in the same test adds no second check
			if len(r.cleanups) != 1 {
				t.Fatalf("%d cleanups registered; want 1", len(r.cleanups))
			}
			stop := make(chan struct{})
			tt.run(stop)
			r.finish()
			close(stop)
			switch {
			case !tt.wantLeak && len(r.errors) > 0:
				t.Errorf("Check reported %q; want nothing", r.errors)
			case tt.wantLeak && len(r.errors) != 1:
				t.Errorf("Check reported %q; want one leak", r.errors)
			case tt.wantLeak && !strings.Contains(r.errors[0], "leakcheck.leaky"):
				t.Errorf("the report does not name the goroutine left running:\n%s", r.errors[0])
			case tt.wantLeak && strings.Contains(r.errors[0], "testing.tRunner"):
				t.Errorf("the report names goroutines that ran before Check:\n%s", r.errors[0])
			}
		})
	}
}

// leaky is the goroutine a test leaves running: it blocks until stop is
// closed. It closes running first, once its own frame is on its stack.
func leaky(running, stop chan struct{}) {
	close(running)
	<-stop
}

// startLeaky starts leaky and returns once it runs, so that a report names
// it: a goroutine not yet scheduled shows only its go statement's wrapper
// (under -cpu 1 on a loaded machine, for longer than Check's shortened
// timeout).
func startLeaky(stop chan struct{}) {
	running := make(chan struct{})
	go leaky(running, stop)
	<-running
}

// runner is a testing.M whose run starts f.
type runner func() int

func (r runner) Run() int { return r() }

func TestMainReportsLeaks(t *testing.T) {
	defer func(d time.Duration) { timeout = d }(timeout)
	full := timeout
	stop := make(chan struct{})
	defer close(stop)
	tests := []struct {
		name string
		run  func() int
		want int
	}{
		{"nothing left", func() int {
			done := make(chan struct{})
			go func() { <-done }()
			close(done)
			return 0
		}, 0},
		{"goroutine left running", func() int { startLeaky(stop); return 0 }, 1},
		{"tests failed", func() int { return 2 }, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			waitFor(tt.want == 1, full)
			var out strings.Builder
			if got := run(runner(tt.run), &out); got != tt.want {
				t.Errorf("exit code %d, want %d; report:\n%s", got, tt.want, out.String())
			}
			if tt.want == 1 && !strings.Contains(out.String(), "leakcheck.leaky") {
				t.Errorf("the report does not name the goroutine left running:\n%s", out.String())
			}
		})
	}
}

// TestCheckSeesPastAnEndedGoroutine: a goroutine from before Check that
// ends during the test does not hide one the test leaves running, as a
// count of goroutines would (TestCheck failed that way under -cpu 1,2).
func TestCheckSeesPastAnEndedGoroutine(t *testing.T) {
	defer func(d time.Duration) { timeout = d }(timeout)
	timeout = leakTimeout
	end, stop := make(chan struct{}), make(chan struct{})
	defer close(stop)
	go func() { <-end }()
	r := &recorder{TB: t}
	Check(r)
	startLeaky(stop)
	close(end)
	r.finish()
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "leakcheck.leaky") {
		t.Errorf("Check reported %q; want the goroutine left running", r.errors)
	}
}

// TestStacksWhole: the dump Check compares holds every goroutine, however
// many run; one cut at a fixed size hides the goroutines past the cut, a
// leak among them included.
// Its goroutines run a function of their own, and the test waits for them
// to end, so that no other test's leaky goroutine, nor one of this test's
// earlier run (-count) still ending, is counted with them.
func TestStacksWhole(t *testing.T) {
	const n = 5000 // some 300 bytes of stack each: more than 1 MiB in all
	stop := make(chan struct{})
	var ended sync.WaitGroup
	defer ended.Wait()
	defer close(stop)
	for range n {
		running := make(chan struct{})
		ended.Go(func() { parked(running, stop) })
		<-running
	}
	if got := strings.Count(stacks(), "leakcheck.parked("); got != n {
		t.Errorf("the dump holds %d of the %d goroutines running parked", got, n)
	}
}

// parked is TestStacksWhole's goroutine: it says it runs, then waits for
// stop.
func parked(running, stop chan struct{}) {
	close(running)
	<-stop
}
