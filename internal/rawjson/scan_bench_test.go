package rawjson_test

import (
	"math/rand/v2"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
	"github.com/acp-bridge/acp-bridge/internal/soak"
)

// BenchmarkValidStringMix checks the strings of the soak's mixes
// (internal/soak): 4 MiB of them, agent chunks of 1 B to 1 KiB and every
// tenth a tool's output of 100 B to 20 KiB, each text drawn afresh, so
// that where its escapes fall is as new to the processor's branch
// predictor as on the wire (one text checked over and over is learnt, and
// measures half the cost on prose). Compare CPU time (utime) over a fixed
// -benchtime NNNx: wall time on a loaded machine measures the load.
func BenchmarkValidStringMix(b *testing.B) {
	for _, mix := range []soak.Mix{soak.Prose, soak.Runs} {
		r := rand.New(rand.NewPCG(1, 2))
		var texts [][]byte
		total := 0
		for total < 4<<20 {
			n := 1 + r.IntN(1024)
			if r.IntN(10) == 0 {
				n = 100 + r.IntN(20480)
			}
			t := []byte(`"` + mix.Text(r, n) + `"`)
			texts = append(texts, t)
			total += len(t)
		}
		b.Run(mix.String(), func(b *testing.B) {
			b.SetBytes(int64(total))
			for b.Loop() {
				for _, t := range texts {
					if _, ok := rawjson.ValidString(t, 0); !ok {
						b.Fatalf("invalid: %.40q", t)
					}
				}
			}
		})
	}
}
