package leakcheck

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// Main runs a package's tests, as a TestMain does, and then fails the run
// if goroutines that started during it still run, waiting up to 10
// seconds for them to end; it lists them on stderr. Unlike Check it covers
// tests that run in parallel and goroutines a package starts outside any
// test's cleanups, at the cost of not naming the test:
//
//	func TestMain(m *testing.M) { os.Exit(leakcheck.Main(m)) }
//
// m is a *testing.M.
func Main(m interface{ Run() int }) int {
	return run(m, os.Stderr)
}

func run(m interface{ Run() int }, stderr io.Writer) int {
	old := goroutineIDs(stacks())
	code := m.Run()
	if code != 0 {
		return code
	}
	if left := leftSince(old); len(left) > 0 {
		fmt.Fprintf(stderr, "leakcheck: %d goroutines started by the tests still run %v after them:\n\n%s\n",
			len(left), timeout, strings.Join(left, "\n\n"))
		return 1
	}
	return code
}

// startedSince returns the stacks of the goroutines not in old, but for
// the ones the standard library starts once and keeps (see lifelong).
func startedSince(old map[string]bool) []string {
	var added []string
	for _, g := range strings.Split(stacks(), "\n\n") {
		if !old[goroutineID(g)] && !lifelong(g) {
			added = append(added, g)
		}
	}
	return added
}

// lifelong reports whether stack is a goroutine the standard library
// starts on first use and keeps for the life of the process: the one
// that delivers signals once signal.Notify is called.
func lifelong(stack string) bool {
	return strings.Contains(stack, "os/signal.loop")
}
