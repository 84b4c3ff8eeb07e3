package acpwiretest

import (
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
