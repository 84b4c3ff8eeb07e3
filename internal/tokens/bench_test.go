package tokens

import (
	"testing"
)

// BenchmarkCount measures Count on each hostile input at two sizes: the
// time per byte must not grow with the size.
func BenchmarkCount(b *testing.B) {
	for _, n := range []int{64 << 10, 1 << 20} {
		for name, s := range hostile(n) {
			b.Run(name+"/"+sizeName(n), func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				for range b.N {
					Count(s)
				}
			})
		}
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return "1MiB"
	}
	return "64KiB"
}
