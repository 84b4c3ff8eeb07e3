package acpwiretest

import (
	"runtime"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

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

// TestGetsNothingMore: a line the peer receives before the barrier fails
// the test; with nothing before it, the barrier is all the peer gets.
func TestGetsNothingMore(t *testing.T) {
	h := Start(t, acpwire.New(acpwire.Options{}))
	h.AgentGetsNothingMore()
	h.ClientGetsNothingMore()

	r := &fatalRecorder{TB: t, failed: make(chan string, 1)}
	h = Start(r, acpwire.New(acpwire.Options{}))
	h.FromClient(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.AgentGetsNothingMore()
	}()
	<-done
	select {
	case <-r.failed:
	default:
		t.Error("AgentGetsNothingMore passed although the agent received a line before the barrier")
	}
}
