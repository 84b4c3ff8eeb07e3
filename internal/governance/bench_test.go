package governance

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/benchstream"
)

// benchEngine is an engine over root under testdataPolicy, a realistic
// policy for the benchmarks: 18 rules.
func benchEngine(b *testing.B, root string) *Engine {
	return NewEngine(testdataPolicy(b), EngineOptions{Roots: []string{root}})
}

const chunkLine = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Looking at the failing test, the problem is in the handler: it returns before the response is written."}}}}`

// streamLines returns n session/update notifications. With tools, every
// 50th message starts a tool call (a read inside the workspace, allowed)
// and the next one completes it, so the governed run decides and records.
func streamLines(n int, tools bool, root string) []byte {
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		switch {
		case tools && i%50 == 0:
			fmt.Fprintf(&buf, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t%d","title":"Read main.go","kind":"read","status":"pending","locations":[{"path":"%s/src/main.go"}],"rawInput":{"file_path":"%s/src/main.go"},"_meta":{"claudeCode":{"toolName":"Read"}}}}}`+"\n", i, root, root)
		case tools && i%50 == 1:
			fmt.Fprintf(&buf, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t%d","status":"completed","content":[{"type":"content","content":{"type":"text","text":"package main\n\nfunc main() {}\n"}}]}}}`+"\n", i-1)
		default:
			buf.WriteString(chunkLine + "\n")
		}
	}
	return buf.Bytes()
}

// runStream pushes stream from the agent through a bridge to the client
// and waits until all n lines came out. It returns the CPU time used.
func runStream(b *testing.B, mw acpwire.Middleware, bridge *acpwire.Bridge, stream []byte, n int) time.Duration {
	if mw != nil {
		bridge.Use(mw)
	}
	clientInR, clientInW := io.Pipe()
	clientOutR, clientOutW := io.Pipe()
	agentInR, agentInW := io.Pipe()
	agentOutR, agentOutW := io.Pipe()
	go io.Copy(io.Discard, agentInR)
	s, err := bridge.Start(context.Background(), acpwire.Endpoint{In: clientInR, Out: clientOutW}, acpwire.Endpoint{In: agentOutR, Out: agentInW})
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan int)
	go func() {
		r := bufio.NewReaderSize(clientOutR, 1<<16)
		count := 0
		for count < n {
			line, err := r.ReadSlice('\n')
			if len(line) > 0 && line[len(line)-1] == '\n' {
				count++
			}
			if err != nil && err != bufio.ErrBufferFull {
				break
			}
		}
		done <- count
		io.Copy(io.Discard, r)
	}()
	b.StartTimer()
	cpu0 := benchstream.CPUTime()
	if _, err := agentOutW.Write(stream); err != nil {
		b.Fatal(err)
	}
	if got := <-done; got != n {
		b.Fatalf("client got %d lines, want %d", got, n)
	}
	cpu := benchstream.CPUTime() - cpu0
	b.StopTimer()
	agentOutW.Close()
	clientInW.Close()
	<-s.Done(acpwire.AgentToClient)
	<-s.Done(acpwire.ClientToAgent)
	s.Close()
	clientOutW.Close()
	agentInW.Close()
	return cpu
}

// BenchmarkStream sends the 200,000-notification stream from the agent to
// the client through a real bridge over pipes: pass-through, and with
// governance and the audit log on. Compare ns/msg between the two.
func BenchmarkStream(b *testing.B) {
	const n = 200_000
	root := b.TempDir()
	for _, tools := range []bool{false, true} {
		stream := streamLines(n, tools, root)
		name := "chunks"
		if tools {
			name = "with-tool-calls"
		}
		b.Run(name+"/passthrough", func(b *testing.B) {
			b.StopTimer()
			b.SetBytes(int64(len(stream)))
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				cpu += runStream(b, nil, acpwire.New(acpwire.Options{}), stream, n)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/msg")
		})
		b.Run(name+"/governed", func(b *testing.B) {
			b.StopTimer()
			b.SetBytes(int64(len(stream)))
			e := benchEngine(b, root)
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				l, err := audit.Open(filepath.Join(b.TempDir(), "audit.jsonl"), audit.Options{})
				if err != nil {
					b.Fatal(err)
				}
				br := acpwire.New(acpwire.Options{})
				q := NewQueuedRecorder(l, nil) // as the bridge command does
				x := NewEnforcer(EnforceOptions{Engine: e, Sender: br, Audit: q})
				x.opened.add("s1") // as if the IDE had opened it: updates in other sessions are refused
				cpu += runStream(b, x.Middleware(), br, stream, n)
				q.Close()
				l.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/msg")
		})
	}
}

// BenchmarkEnforcePassThrough measures the middleware's own cost per
// session/update notification of an open session that it forwards
// unchanged, against a bare handler; it fails if a message was not
// forwarded (a refusal is another path).
func BenchmarkEnforcePassThrough(b *testing.B) {
	root := b.TempDir()
	msgs := map[string][]byte{
		"chunk":            []byte(chunkLine),
		"tool_call_update": []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"tX","status":"in_progress"}}}`),
	}
	bare := acpwire.HandlerFunc(func(context.Context, *acpwire.Message) error { return nil })
	for name, raw := range msgs {
		m, err := acpwire.Parse(acpwire.AgentToClient, raw)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/bare", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = bare.Handle(context.Background(), m)
			}
		})
		b.Run(name+"/enforce", func(b *testing.B) {
			forwarded := 0
			x := NewEnforcer(EnforceOptions{Engine: benchEngine(b, root), Sender: acpwire.New(acpwire.Options{})})
			x.opened.add("s1") // as if the IDE had opened it: updates in other sessions are refused
			h := x.Middleware()(acpwire.HandlerFunc(func(context.Context, *acpwire.Message) error { forwarded++; return nil }))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = h.Handle(context.Background(), m)
			}
			b.StopTimer()
			if forwarded != b.N {
				b.Fatalf("%d of %d messages forwarded: not the pass-through path", forwarded, b.N)
			}
		})
	}
}

// BenchmarkDecide measures one decision for typical requests.
func BenchmarkDecide(b *testing.B) {
	root := b.TempDir()
	e := benchEngine(b, root)
	for name, req := range map[string]Request{
		"read":     {Action: ActionFSRead, Paths: []string{root + "/src/main.go"}, Cwd: root},
		"command":  {Action: ActionTerminalCreate, Command: "FOO=1 npm run test -- --watch && echo $(git status) | tee out.log", Cwd: root},
		"toolname": {Action: ActionToolCall, Tool: "WebSearch"},
	} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				e.Decide(req)
			}
		})
	}
}

// soakLines returns n session/update notifications in session s1 mixed as
// the soak benchmark mixes them (internal/soak): text chunks of 1 byte to
// 1 KiB, and every tenth message a tool_call_update completing a read the
// message before opened with tool_call, carrying 100 bytes to 20 KiB of
// prose-like tool output.
func soakLines(n int, root string) []byte {
	r := rand.New(rand.NewPCG(20, 20))
	text := func(size int) string {
		var b strings.Builder
		for b.Len() < size {
			b.WriteString(benchWords[r.IntN(len(benchWords))])
			b.WriteByte(' ')
		}
		return b.String()[:size]
	}
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		switch i % 10 {
		case 8:
			fmt.Fprintf(&buf, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_%d","title":"read src/file%d.go","kind":"read","status":"in_progress","locations":[{"path":"%s/src/file%d.go"}]}}}`+"\n", i/10, i%50, root, i%50)
		case 9:
			fmt.Fprintf(&buf, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_%d","status":"completed","content":[{"type":"content","content":{"type":"text","text":"%s"}}]}}}`+"\n", i/10, text(100+r.IntN(20480-100+1)))
		default:
			fmt.Fprintf(&buf, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%s"}}}}`+"\n", text(1+r.IntN(1024)))
		}
	}
	return buf.Bytes()
}

var benchWords = strings.Fields(`the bridge forwards each message as it came and the agent reads files runs
tests edits code while the user waits for an answer about why the build failed on line error`)

// BenchmarkSoakMix sends 50,000 notifications of the soak benchmark's mix
// from the agent through a real bridge, pass-through and governed (with no
// audit log, so that the figure is governance's own), in session s1, which
// the IDE opened. Compare cpu-ns/msg.
func BenchmarkSoakMix(b *testing.B) {
	const n = 50_000
	root := b.TempDir()
	stream := soakLines(n, root)
	b.Run("passthrough", func(b *testing.B) {
		b.StopTimer()
		var cpu time.Duration
		for i := 0; i < b.N; i++ {
			cpu += runStream(b, nil, acpwire.New(acpwire.Options{}), stream, n)
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/msg")
	})
	b.Run("governed", func(b *testing.B) {
		b.StopTimer()
		e := benchEngine(b, root)
		var cpu time.Duration
		for i := 0; i < b.N; i++ {
			br := acpwire.New(acpwire.Options{})
			x := NewEnforcer(EnforceOptions{Engine: e, Sender: br})
			x.opened.add("s1")
			cpu += runStream(b, x.Middleware(), br, stream, n)
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/msg")
	})
}
