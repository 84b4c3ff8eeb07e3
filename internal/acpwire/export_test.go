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

// BlockSize is the size of a read block.
const BlockSize = blockSize

// ReadBlocks returns how many read blocks s has allocated for the messages
// travelling in dir, and whether it reuses them (false: every message gets
// fresh memory, as when a middleware may keep messages).
func ReadBlocks(s *Session, dir Direction) (made int64, reused bool) {
	p := s.pools[dir]
	if p == nil {
		return 0, false
	}
	return p.made.Load(), true
}
