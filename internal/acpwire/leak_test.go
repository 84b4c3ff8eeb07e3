package acpwire

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// settle is how long waitFor and checkLeaks wait for a condition that
// should hold at once; only a broken bridge takes that long.
const settle = 10 * time.Second

// waitFor waits until cond holds, failing the test if it does not within
// settle. It polls: the conditions it waits on (bytes in a pipe, goroutines
// ended) have no event to wait on.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(settle)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting after %v: %s", settle, what)
		}
		time.Sleep(time.Millisecond)
	}
}

// checkLeaks fails the test if, once its cleanups have run, more
// goroutines run than when checkLeaks was called: a bridge whose session
// has ended must leave nothing behind. Call it before starting the bridge,
// so its check runs after the cleanups that stop the bridge. The package's
// tests do not run in parallel, so the count is the test's own.
// leakChecked holds the tests whose goroutines are checked already: a test
// that starts several bridges is checked once, against the count before
// the first, since the others start while earlier ones still run.
var leakChecked sync.Map

func checkLeaks(t testing.TB) {
	t.Helper()
	if _, checked := leakChecked.LoadOrStore(t, true); checked {
		return // the first call's check runs last and covers this one
	}
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		leakChecked.Delete(t)
		deadline := time.Now().Add(settle)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				n := runtime.Stack(buf, true)
				var ours []string
				for _, g := range strings.Split(string(buf[:n]), "\n\n") {
					if strings.Contains(g, "acpwire.") && !strings.Contains(g, "checkLeaks") {
						ours = append(ours, g)
					}
				}
				t.Errorf("%d goroutines %v after the test, %d before; acpwire's:\n%s",
					runtime.NumGoroutine(), settle, before, strings.Join(ours, "\n\n"))
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
}
