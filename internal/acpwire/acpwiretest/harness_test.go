package acpwiretest

import (
	"runtime"
	"testing"

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
