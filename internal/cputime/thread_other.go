//go:build !linux

package cputime

import "time"

// threadTime reports that a thread's CPU time cannot be read here.
func threadTime() (time.Duration, bool) { return 0, false }
