package compress

import (
	"testing"
	"time"
)

// FuzzAppendClock checks appendClock against the layout it stands for, at
// any instant in any zone.
func FuzzAppendClock(f *testing.F) {
	f.Add(int64(0), int64(0), 0)
	f.Add(int64(1769698800), int64(999999999), 3600)
	f.Add(int64(-62135596800), int64(1), -5*3600)
	f.Add(int64(253402300799), int64(0), 14*3600)
	f.Fuzz(func(t *testing.T, sec, nsec int64, offset int) {
		at := time.Unix(sec, nsec).In(time.FixedZone("z", offset%(24*3600)))
		if got, want := string(appendClock(nil, at)), at.UTC().Format("15:04:05"); got != want {
			t.Fatalf("appendClock(%v) = %q, want %q", at, got, want)
		}
	})
}
