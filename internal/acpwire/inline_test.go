package acpwire

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/soak"
)

// notePreempt is a middleware that changes nothing but is a Preempter,
// which keeps every read message on the forwarding loop (Session.run
// dispatches on the reader only without preempt hooks).
type notePreempt struct{}

func (notePreempt) Wrap(next Handler) Handler { return next }
func (notePreempt) Preempt(*Message)          {}

// TestInlineStreamMatchesLoop streams a turn of each soak mix, with a
// refused line and a line over the size limit among it, from the agent
// through a bridge that dispatches on its reader (no preempt hooks) and
// through one whose forwarding loop dispatches everything (a preempt hook),
// the IDE side reading in small pieces at first: both must write the same
// bytes, which are the input's without the two it refuses.
func TestInlineStreamMatchesLoop(t *testing.T) {
	t.Setenv(PoisonBlocksEnv, "1")
	for _, mix := range []soak.Mix{soak.Prose, soak.Runs} {
		var out bytes.Buffer
		prompt := `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s"}}` + "\n"
		if err := soak.ServeAgent(strings.NewReader(prompt), &out, soak.AgentConfig{Mix: mix, Messages: 3000, UsageEvery: 50}); err != nil {
			t.Fatal(err)
		}
		stream := out.Bytes()
		stream = stream[:bytes.LastIndexByte(stream[:len(stream)-1], '\n')+1] // without the prompt's response
		lines := bytes.SplitAfter(stream, []byte("\n"))
		var in, want []byte
		for i, l := range lines {
			in = append(in, l...)
			want = append(want, l...)
			if i%700 == 350 {
				in = append(in, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","ToolCallId":"d"}}}`+"\n"...)
				in = append(in, `{"jsonrpc":"2.0","method":"x","params":"`+strings.Repeat("a", 100<<10)+`"}`+"\n"...)
			}
		}
		n := bytes.Count(want, []byte("\n"))
		inline := forwardAll(t, in, n, false)
		loop := forwardAll(t, in, n, true)
		if !bytes.Equal(inline, loop) {
			t.Errorf("%s: the reader's dispatch wrote %d bytes, the loop's %d, not the same", mix, len(inline), len(loop))
		}
		if !bytes.Equal(inline, want) {
			t.Errorf("%s: the bridge wrote %d bytes, want the %d accepted", mix, len(inline), len(want))
		}
	}
}

// forwardAll writes stream from the agent side through a bridge with a
// 64 KiB line limit and returns the first n lines the client side read,
// read in small pieces at first; with loop set, a preempt hook keeps
// dispatch on the loop.
func forwardAll(t *testing.T, stream []byte, n int, loop bool) []byte {
	t.Helper()
	ar, aw := osPipe(t)
	cr, cw := osPipe(t)
	_, sink := osPipe(t)
	outR, outW := osPipe(t)
	br := New(Options{MaxLineSize: 64 << 10})
	if loop {
		br.UseNonRetaining(notePreempt{})
	}
	s, err := br.Start(context.Background(), Endpoint{In: cr, Out: outW}, Endpoint{In: ar, Out: sink})
	if err != nil {
		t.Fatal(err)
	}
	go func() { aw.Write(stream); aw.Close() }()
	var got []byte
	buf := make([]byte, 64<<10)
	for reads, lines := 0, 0; lines < n; reads++ {
		size := len(buf)
		if reads < 200 {
			size = 1 + reads*37%4096
		}
		k, err := outR.Read(buf[:size])
		got = append(got, buf[:k]...)
		lines += bytes.Count(buf[:k], []byte("\n"))
		if err != nil {
			t.Fatalf("after %d lines of %d: %v", lines, n, err)
		}
	}
	cw.Close()
	<-s.Done(AgentToClient)
	s.Close()
	for _, f := range []io.Closer{ar, cr, outR, outW, sink} {
		f.Close()
	}
	return got
}
