package acpwire

import (
	"bufio"
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/benchstream"
	"github.com/acp-bridge/acp-bridge/internal/soak"
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
	forwardStream(b, benchStream(n), n)
}

// BenchmarkForwardMix is BenchmarkForward on a turn of the soak's mixes
// (cmd/acp-bridge's BenchmarkStreamMix): text chunks of 1 B to 1 KiB, every
// tenth message a tool_call and the next a tool_call_update with 100 B to
// 20 KiB of output, every 50th a usage_update. In one process its CPU time
// per message is steadier than the wall-time ratio of the three processes
// BenchmarkStreamMix runs, so it compares two builds of the wire.
func BenchmarkForwardMix(b *testing.B) {
	const n = 20000
	for _, mix := range []soak.Mix{soak.Prose, soak.Runs} {
		b.Run(mix.String(), func(b *testing.B) { forwardStream(b, mixStream(b, mix, n), n) })
	}
}

// mixStream is one turn of n notifications of mix as the soak's agent
// writes it, without the prompt's response.
func mixStream(b *testing.B, mix soak.Mix, n int) []byte {
	var out bytes.Buffer
	prompt := `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s"}}` + "\n"
	if err := soak.ServeAgent(strings.NewReader(prompt), &out, soak.AgentConfig{Mix: mix, Messages: n, UsageEvery: 50}); err != nil {
		b.Fatal(err)
	}
	stream := out.Bytes()
	last := bytes.LastIndexByte(stream[:len(stream)-1], '\n')
	if got := bytes.Count(stream[:last+1], []byte("\n")); got != n {
		b.Fatalf("the soak agent wrote %d notifications, want %d", got, n)
	}
	return stream[:last+1]
}

// forwardStream writes stream, n messages, from the agent side through a
// Bridge and reads them on the client side, b.N times, and reports the
// wall and CPU time per message.
func forwardStream(b *testing.B, stream []byte, n int) {
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
