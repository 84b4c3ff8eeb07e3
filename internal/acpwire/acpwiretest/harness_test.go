package acpwiretest

import (
	"runtime"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// fatalRecorder is a testing.TB whose Fatalf records the failure and, as
// testing.T's does, ends the goroutine it is called on.
type fatalRecorder struct {
	testing.TB
	failed chan string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.failed <- format
	runtime.Goexit()
}

func TestHarnessForwards(t *testing.T) {
	h := Start(t, acpwire.New(acpwire.Options{}))
	req := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`
	h.FromClient(req)
	if got := h.AgentGets(); got != req {
		t.Errorf("agent got %s; want %s", got, req)
	}
	resp := `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`
	h.FromAgent(resp)
	if got := h.ClientGets(); got != resp {
		t.Errorf("IDE got %s; want %s", got, resp)
	}
}

// TestGetsNothingKeepsTheLine: a line that arrives after GetsNothing gave
// up waiting is the next one read, not lost to the read it started.
func TestGetsNothingKeepsTheLine(t *testing.T) {
	h := Start(t, acpwire.New(acpwire.Options{}))
	h.AgentGetsNothing(10 * time.Millisecond)
	h.ClientGetsNothing(10 * time.Millisecond)
	note := `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`
	h.FromClient(note)
	if got := h.AgentGets(); got != note {
		t.Errorf("agent got %s; want %s", got, note)
	}
	update := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
	h.FromAgent(update)
	if got := h.ClientGets(); got != update {
		t.Errorf("IDE got %s; want %s", got, update)
	}
}

// TestGetsNothingFails: a line the peer receives within the wait fails
// the test.
func TestGetsNothingFails(t *testing.T) {
	r := &fatalRecorder{TB: t, failed: make(chan string, 1)}
	h := Start(r, acpwire.New(acpwire.Options{}))
	h.FromClient(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.AgentGetsNothing(DefaultTimeout)
	}()
	<-done
	select {
	case <-r.failed:
	default:
		t.Error("AgentGetsNothing passed although the agent received a line")
	}
}
