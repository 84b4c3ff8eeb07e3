// Package leakcheck fails a test that leaves goroutines running: a bridge
// whose session has ended, or a pipeline that has closed, must leave
// nothing behind.
//
//	func TestX(t *testing.T) {
//		leakcheck.Check(t) // before starting what it checks
//		...
//	}
package leakcheck

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// timeout is how long Check waits for goroutines to end after the test:
// only one that is stuck takes that long. Only this package's tests
// change it.
var timeout = 10 * time.Second

// checked holds the tests whose goroutines are checked already: a test
// that starts several bridges is checked once, against the count before
// the first, since the others start while earlier ones still run.
var checked sync.Map

// Check fails t if, once its cleanups have run, goroutines still run that
// were not running when Check was called, waiting up to 10 seconds for
// them to end; the failure lists them. It compares the goroutines, not
// their number: a goroutine from before that ends during the test does
// not hide one the test leaves running. Call it before starting what it
// checks, so its check runs after the cleanups that stop it. It sees every
// goroutine of the process, so it is meant for tests that do not run in
// parallel.
func Check(t testing.TB) {
	t.Helper()
	if _, ok := checked.LoadOrStore(t, true); ok {
		return // the first call's check runs last and covers this one
	}
	old := goroutineIDs(stacks())
	t.Cleanup(func() {
		checked.Delete(t)
		if left := leftSince(old); len(left) > 0 {
			t.Errorf("%d goroutines started during the test still run %v after it:\n%s",
				len(left), timeout, strings.Join(left, "\n\n"))
		}
	})
}

// leftSince waits up to timeout for the goroutines started since old (see
// startedSince) to end, and returns the stacks of those that still run.
func leftSince(old map[string]bool) []string {
	deadline := time.Now().Add(timeout)
	for {
		added := startedSince(old)
		if len(added) == 0 || time.Now().After(deadline) {
			return added
		}
		time.Sleep(time.Millisecond) // nothing to wait on: poll
	}
}

// stacks returns every goroutine's stack, separated by blank lines. The
// buffer grows until the dump fits: runtime.Stack cuts what does not.
func stacks() string {
	for size := 1 << 20; ; size *= 2 {
		buf := make([]byte, size)
		if n := runtime.Stack(buf, true); n < size {
			return string(buf[:n])
		}
	}
}

func goroutineIDs(all string) map[string]bool {
	ids := map[string]bool{}
	for _, g := range strings.Split(all, "\n\n") {
		ids[goroutineID(g)] = true
	}
	return ids
}

// goroutineID returns the number in a stack's first line, "goroutine 7
// [running]:".
func goroutineID(stack string) string {
	id, _, _ := strings.Cut(strings.TrimPrefix(stack, "goroutine "), " ")
	return id
}
