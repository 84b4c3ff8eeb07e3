//go:build linux

package compress

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/benchstream"
	"github.com/acp-bridge/acp-bridge/internal/cputime"
	"github.com/acp-bridge/acp-bridge/internal/soak"
)

// soakMix returns n session/update lines for session sid as acp-soak's
// runs mix (or prose mix) sends them (internal/soak): of every ten, eight
// agent_message_chunk of 1 B-1 KiB, a tool_call on a file under cwd
// (kinds cycling read, execute, search, fetch) and a tool_call_update
// completing it with 100 B-20 KiB of text. Runs text is base64 letters
// without spaces; prose is words, with a \n escape every dozen or so.
func soakMix(n int, sid, cwd string, prose bool) [][]byte {
	rng := rand.New(rand.NewPCG(1, 20))
	mix := soak.Runs
	if prose {
		mix = soak.Prose
	}
	text := func(n int) string { return mix.Text(rng, n) }
	chunks, tools := make([]string, 257), make([]string, 61)
	for i := range chunks {
		chunks[i] = text(1 + rng.IntN(1024))
	}
	for i := range tools {
		tools[i] = text(100 + rng.IntN(20480-100+1))
	}
	kinds := []string{"read", "execute", "search", "fetch"}
	out := make([][]byte, n)
	for i := range out {
		b := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":`)
		b = strconv.AppendQuote(b, sid)
		call := "call_1_" + strconv.Itoa(i/10)
		k := kinds[(i/10)%len(kinds)]
		file := "src/file" + strconv.Itoa((i/10)%50) + ".go"
		switch i % 10 {
		case 8:
			b = append(b, `,"update":{"sessionUpdate":"tool_call","toolCallId":"`+call+`","title":"`+k+` `+file+`","kind":"`+k+`","status":"in_progress","locations":[{"path":`...)
			b = strconv.AppendQuote(b, cwd+"/"+file)
			b = append(b, `}]}}}`...)
		case 9:
			b = append(b, `,"update":{"sessionUpdate":"tool_call_update","toolCallId":"`+call+`","status":"completed","content":[{"type":"content","content":{"type":"text","text":"`+tools[(i/10)%len(tools)]+`"}}]}}}`...)
		default:
			b = append(b, `,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`+chunks[i%len(chunks)]+`"}}}}`...)
		}
		out[i] = b
	}
	return out
}

// BenchmarkUpdateMix runs the compression middleware alone (no wire, a
// next handler that does nothing) over 20,000 session/update notifications
// of acp-soak's runs and prose mixes, and reports the CPU time (user and system, of the
// running thread alone: the spool's writes are made on it) per message:
// cpu-ns/msg, and the process's (the garbage collector's work included):
// proc-cpu-ns/msg. The messages are copies of 400 parsed beforehand (1 MiB of
// lines, which stay in the cache as a line the bridge has just read and
// parsed is). Each round starts a new pipeline.
//
//	go test -run '^$' -bench BenchmarkUpdateMix -benchtime 20x ./internal/compress
func BenchmarkUpdateMix(b *testing.B) {
	b.Run("runs", func(b *testing.B) { benchUpdateMix(b, false) })
	b.Run("prose", func(b *testing.B) { benchUpdateMix(b, true) })
}

func benchUpdateMix(b *testing.B, prose bool) {
	const n = 20000
	lines := soakMix(400, "sess_soak", "/home/u/project", prose)
	parsed := make([]*acpwire.Message, len(lines))
	for i, l := range lines {
		m, err := acpwire.Parse(acpwire.AgentToClient, l)
		if err != nil {
			b.Fatal(err)
		}
		m.Received = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		parsed[i] = m
	}
	nop := acpwire.HandlerFunc(func(context.Context, *acpwire.Message) error { return nil })
	ctx := context.Background()
	var cpu, proc time.Duration
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		p, err := New(Config{CacheDir: b.TempDir()}, noSender{})
		if err != nil {
			b.Fatal(err)
		}
		h := p.Middleware()(nop)
		msgs := make([]acpwire.Message, n)
		for i := range msgs {
			msgs[i] = *parsed[i%len(parsed)]
		}
		b.StartTimer()
		procBefore := benchstream.CPUTime()
		cpu += cputime.Of(func() {
			for i := range msgs {
				if err := h.Handle(ctx, &msgs[i]); err != nil {
					b.Fatal(err)
				}
			}
		})
		proc += benchstream.CPUTime() - procBefore
		b.StopTimer()
		if err := p.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/msg")
	b.ReportMetric(float64(proc.Nanoseconds())/float64(b.N*n), "proc-cpu-ns/msg")
}

// noSender drops what the pipeline sends of its own (estimated
// usage_update notices).
type noSender struct{ acpwire.Sender }

func (noSender) Notify(acpwire.Direction, string, any) error { return nil }
