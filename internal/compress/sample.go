package compress

import (
	"strings"
	"unicode/utf8"
)

// Sample sizes: SampleSlots pieces of at most SampleSlotBytes each.
const (
	SampleSlots     = 16
	SampleSlotBytes = 1024
	// SampleBytes is the most text a Sample holds.
	SampleBytes = SampleSlots * SampleSlotBytes
)

// Sample is a uniform sample of the pieces of streamed text offered to it
// (reservoir sampling), each cut to SampleSlotBytes, so its tokens per
// byte stand for the whole stream's at a bounded cost. The choice is
// deterministic: the same stream gives the same sample.
type Sample struct {
	slots   [SampleSlots]string
	offered int64  // pieces offered
	cut     bool   // a kept piece was cut, or a piece was left out
	seed    uint64 // distinguishes the samples of successive turns
}

// offer gives the sample the n-byte piece text returns; text is called only
// if the piece is kept.
func (s *Sample) offer(n int, text func() string) {
	s.offered++
	k := s.offered - 1
	if k >= SampleSlots {
		s.cut = true
		// Keep the k-th piece with probability SampleSlots/(k+1).
		j := int64(mix64(uint64(k)^s.seed) % uint64(k+1))
		if j >= SampleSlots {
			return
		}
		k = j
	}
	t := text()
	if len(t) > SampleSlotBytes {
		t = t[:runeStart(t, SampleSlotBytes)]
		s.cut = true
	}
	s.slots[k] = strings.Clone(t)
}

// text returns the sampled pieces joined, their length, and whether they
// are the whole stream (then in order).
func (s *Sample) text() (joined string, bytes int64, whole bool) {
	joined = strings.Join(s.slots[:], "")
	return joined, int64(len(joined)), !s.cut
}

// runeStart returns the largest i <= n at which a UTF-8 character starts in
// s (or n if none does in the last three bytes).
func runeStart(s string, n int) int {
	for i := n; i > n-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return n
}

// mix64 is SplitMix64's finaliser: a cheap, well-spread hash.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
