package acpwire

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/benchstream"
)

// benchStream is the benchmark stream (benchstream.Messages, as in
// cmd/acp-bridge's BenchmarkStream200k) as an agent writes it: one message
// a line.
func benchStream(n int) []byte {
	var out []byte
	for _, m := range benchstream.Messages(n) {
		out = append(append(out, m...), '\n')
	}
	return out
}

// BenchmarkForward measures the bridge's own cost per message: a stream of
// notifications from the agent side through a Bridge (no middleware) to the
// client side, over OS pipes, in one process.
func BenchmarkForward(b *testing.B) {
	const n = 20000
	stream := benchStream(n)
	b.SetBytes(int64(len(stream)))
	b.ResetTimer()
	cpu0 := benchstream.CPUTime()
	for i := 0; i < b.N; i++ {
		ar, aw := osPipe(b)
		cr, cw := osPipe(b)
		_, sink := osPipe(b)
		outR, outW := osPipe(b)
		br := New(Options{})
		s, err := br.Start(context.Background(), Endpoint{In: cr, Out: outW}, Endpoint{In: ar, Out: sink})
		if err != nil {
			b.Fatal(err)
		}
		go func() { aw.Write(stream); aw.Close() }()
		rd := bufio.NewReaderSize(outR, 1<<20)
		for k := 0; k < n; k++ {
			_, err := rd.ReadSlice('\n')
			for err == bufio.ErrBufferFull {
				_, err = rd.ReadSlice('\n')
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		cw.Close()
		<-s.Done(AgentToClient)
		s.Close()
		for _, f := range []interface{ Close() error }{ar, cr, outR, outW, sink} {
			f.Close()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
	// CPU time is steadier than wall time on a loaded machine. It covers
	// the whole process: the bridge and the test's own writer and reader.
	b.ReportMetric(float64((benchstream.CPUTime()-cpu0).Nanoseconds())/float64(b.N*n), "cpu-ns/msg")
}

var _ = fmt.Sprint
var _ io.Reader
