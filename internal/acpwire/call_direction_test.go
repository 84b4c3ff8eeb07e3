package acpwire_test

import (
	"encoding/json"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestCallAnsweredOnlyByItsPeer: a call the bridge makes to the IDE (its
// permission questions) is answered by the IDE only. The agent sees the
// ids of the calls the bridge makes to it (compression's session/new and
// /compact prompt) and so can predict the next; a response from the agent
// under the id of a call waiting for the IDE must not be taken as the
// IDE's answer (a person's allow the agent wrote itself).
func TestCallAnsweredOnlyByItsPeer(t *testing.T) {
	h := newHarness(t, acpwire.Options{})
	done := h.callAsync(acpwire.AgentToClient, "session/request_permission", map[string]any{"sessionId": "s"})
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal([]byte(h.ClientGets()), &req); err != nil {
		t.Fatal(err)
	}
	h.FromAgent(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`)
	// A marker after it: once the IDE has it, the agent's response was handled.
	h.FromAgent(`{"jsonrpc":"2.0","method":"marker"}`)
	if got := h.ClientGets(); got != `{"jsonrpc":"2.0","method":"marker"}` {
		t.Fatalf("IDE got %s", got)
	}
	select {
	case r := <-done:
		t.Fatalf("the agent answered the bridge's call to the IDE: %s, %v", r.raw, r.err)
	default:
	}
	h.FromClient(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"outcome":{"outcome":"selected","optionId":"reject"}}}`)
	if r := <-done; r.err != nil || string(r.raw) != `{"outcome":{"outcome":"selected","optionId":"reject"}}` {
		t.Fatalf("Call = %s, %v; want the IDE's answer", r.raw, r.err)
	}
}
