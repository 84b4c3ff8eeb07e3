//go:build !linux

package cputime

import "time"

// processClock has no source outside Linux; Process reads /proc instead.
func processClock(int) (time.Duration, bool) { return 0, false }
