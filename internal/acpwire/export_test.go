package acpwire

import (
	"os/signal"
	"syscall"
	"time"
)

// setGrace shortens the shutdown timings for a test and returns a function
// that restores them.
func setGrace(stdin, term time.Duration) func() {
	s, t := stdinGrace, termGrace
	stdinGrace, termGrace = stdin, term
	return func() { stdinGrace, termGrace = s, t }
}

func signalIgnore(sig syscall.Signal) { signal.Ignore(sig) }
