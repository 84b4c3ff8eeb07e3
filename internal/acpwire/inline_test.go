package acpwire

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/soak"
)

// notePreempt is a middleware that changes nothing but is a Preempter: with
// it, the reader of the agent dispatches batches of notifications only.
type notePreempt struct{}

func (notePreempt) Wrap(next Handler) Handler { return next }
func (notePreempt) Preempt(*Message)          {}

// TestInlineStreamMatchesLoop streams a turn of each soak mix, with a
// refused line, a line over the size limit and a request among it, from
// the agent through a bridge whose reader dispatches what it reads (no
// preempt hooks), one whose reader dispatches batches of notifications (a
// preempt hook) and one whose forwarding loop dispatches everything
// (readerDispatch off), the IDE side reading in small pieces at first: all
// must write the same bytes, which are the input's without the two it
// refuses.
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
				req := `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"x/y","params":{}}` + "\n"
				in = append(in, req...)
				want = append(want, req...)
			}
		}
		n := bytes.Count(want, []byte("\n"))
		inline := forwardAll(t, in, n, false)
		notes := forwardAll(t, in, n, true)
		readerDispatch = false
		loop := forwardAll(t, in, n, false)
		readerDispatch = true
		for _, got := range []struct {
			name string
			b    []byte
		}{{"the reader's dispatch", inline}, {"the reader's dispatch of notifications", notes}, {"the loop's dispatch", loop}} {
			if !bytes.Equal(got.b, want) {
				t.Errorf("%s: %s wrote %d bytes, want the %d accepted", mix, got.name, len(got.b), len(want))
			}
		}
	}
}

// forwardAll writes stream from the agent side through a bridge with a
// 64 KiB line limit and returns the first n lines the client side read,
// read in small pieces at first; with preempt set, the bridge has a
// preempt hook.
func forwardAll(t *testing.T, stream []byte, n int, preempt bool) []byte {
	t.Helper()
	ar, aw := osPipe(t)
	cr, cw := osPipe(t)
	_, sink := osPipe(t)
	outR, outW := osPipe(t)
	br := New(Options{MaxLineSize: 64 << 10})
	if preempt {
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
