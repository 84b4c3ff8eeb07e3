package compress

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/benchstream"
)

var streamN = flag.Int("stream-n", 200000, "notifications in BenchmarkStream's stream")

// streamMessages returns n session/update notifications for session s1,
// sizes log-uniform between 100 B and 20 KB (most small, as in a real
// stream), mixed: 60% agent_message_chunk, 25% tool_call_update with text
// content, 10% agent_thought_chunk, 5% plan. The seed is fixed.
func streamMessages(n int) [][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the agent reads files runs commands edits code and reports progress back to the editor while the bridge forwards every message")
	text := func(size int) string {
		var b strings.Builder
		for b.Len() < size {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(12) == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	out := make([][]byte, n)
	for i := range out {
		size := int(100 * math.Pow(200, rng.Float64())) // 100 B .. 20 KB
		var u map[string]any
		switch r := rng.IntN(100); {
		case r < 60:
			u = map[string]any{"sessionUpdate": "agent_message_chunk", "content": textBlock(text(size))}
		case r < 85:
			u = map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": fmt.Sprintf("call_%d", i%50), "status": "in_progress",
				"content": []any{map[string]any{"type": "content", "content": textBlock(text(size))}}}
		case r < 95:
			u = map[string]any{"sessionUpdate": "agent_thought_chunk", "content": textBlock(text(size))}
		default:
			u = map[string]any{"sessionUpdate": "plan", "entries": []any{map[string]any{"content": text(size), "status": "in_progress", "priority": "high"}}}
		}
		out[i] = []byte(update("s1", u))
	}
	return out
}

// streamThrough sends lines (each ending in a newline) from the agent
// through a bridge (with the pipeline when withPipeline) and returns once
// the IDE side has read them all. The IDE side only counts newlines, so the
// measurement is the bridge's work plus the pipe copies.
func streamThrough(b *testing.B, lines [][]byte, withPipeline bool) time.Duration {
	br := acpwire.New(acpwire.Options{})
	if withPipeline {
		p, err := New(Config{CacheDir: b.TempDir()}, br)
		if err != nil {
			b.Fatal(err)
		}
		br.Use(p.Middleware())
	}
	cr, cw := io.Pipe()
	ir, iw := io.Pipe()
	ar, aw := io.Pipe()
	gr, gw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sess, err := br.Start(ctx, acpwire.Endpoint{In: cr, Out: iw}, acpwire.Endpoint{In: ar, Out: gw})
	if err != nil {
		b.Fatal(err)
	}
	// The pipeline adds its own notifications (estimated usage_update on
	// level changes), so the reader waits for a sentinel, not a count.
	sentinel := []byte(`{"jsonrpc":"2.0","method":"_bench/end"}`)
	done := make(chan int)
	go func() {
		buf := make([]byte, 256<<10)
		var carry []byte
		n := 0
		for {
			k, err := ir.Read(buf)
			chunk := buf[:k]
			n += bytes.Count(chunk, []byte{'\n'})
			joint := append(carry, chunk[:min(k, len(sentinel))]...)
			if bytes.Contains(joint, sentinel) || bytes.Contains(chunk, sentinel) {
				break
			}
			carry = append(carry[:0], chunk[max(k-len(sentinel), 0):]...)
			if err != nil {
				break
			}
		}
		done <- n
	}()
	start := time.Now()
	for _, l := range lines {
		if _, err := aw.Write(l); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := aw.Write(append(sentinel, '\n')); err != nil {
		b.Fatal(err)
	}
	n := <-done
	d := time.Since(start)
	if n < len(lines)+1 {
		b.Fatalf("IDE got %d of %d messages", n, len(lines)+1)
	}
	cancel()
	cw.Close()
	aw.Close()
	<-sess.Done(acpwire.ClientToAgent)
	<-sess.Done(acpwire.AgentToClient)
	sess.Close()
	iw.Close()
	gw.Close()
	gr.Close()
	return d
}

// BenchmarkStream measures the pipeline's cost on a stream of 200,000
// session/update notifications against pass-through through the same
// bridge over pipes. Run:
//
//	go test -run '^$' -bench BenchmarkStream -benchtime 1x -count 5 ./internal/compress
//
// and compare the pipeline's cpu-s/stream (and s/stream on an idle machine)
// with pass-through's.
func BenchmarkStream(b *testing.B) {
	msgs := streamMessages(*streamN)
	var total int64
	for i, m := range msgs {
		msgs[i] = append(m, '\n')
		total += int64(len(msgs[i]))
	}
	for _, mode := range []struct {
		name string
		on   bool
	}{{"passthrough", false}, {"pipeline", true}} {
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			var d time.Duration
			cpu0 := benchstream.CPUTime()
			for b.Loop() {
				d += streamThrough(b, msgs, mode.on)
			}
			cpu := benchstream.CPUTime() - cpu0
			b.ReportMetric(float64(d.Nanoseconds())/float64(b.N)/1e9, "s/stream")
			// On a shared machine wall time depends on the neighbours; the
			// process's CPU time per stream is the steadier figure.
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/stream")
		})
	}
}
