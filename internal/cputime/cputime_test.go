package cputime

import (
	"runtime"
	"testing"
	"time"
)

func TestOf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Fatalf("Of measures wall time on %s", runtime.GOOS)
	}
	// Waiting takes no CPU: wall time would be 50ms.
	if d := Of(func() { <-time.After(50 * time.Millisecond) }); d >= 25*time.Millisecond {
		t.Errorf("waiting 50ms took %v of CPU", d)
	}
	// Work does.
	if d := Of(busy); d <= 0 {
		t.Errorf("a busy loop took %v of CPU", d)
	}
}

func busy() {
	x := 0
	for i := range 20_000_000 {
		x += i * i
	}
	sink = x
}

var sink int
