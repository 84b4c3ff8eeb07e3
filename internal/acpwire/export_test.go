package acpwire

import (
	"os/signal"
	"syscall"
	"time"
)

// setGrace shortens the shutdown timings for a test and returns a function
// that restores them.
func setGrace(stdin, term time.Duration) func() {
	s, t := DefaultStdinGrace, DefaultTermGrace
	DefaultStdinGrace, DefaultTermGrace = stdin, term
	return func() { DefaultStdinGrace, DefaultTermGrace = s, t }
}

func signalIgnore(sig syscall.Signal) { signal.Ignore(sig) }
