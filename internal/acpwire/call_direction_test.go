package acpwire_test

import (
	"encoding/json"
	"strings"
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

// TestPeerRequestUnderBridgeCallID: a request from a peer under an id of
// the bridge's own (its run's "acp-bridge-<nonce>-" prefix, however the
// string is escaped) is refused. The agent sees the ids of the calls the
// bridge makes to it (compression's session/new) and can predict the id
// of the bridge's next question to the IDE; a permission request of its
// own under that id, waiting for the person when the bridge asks, would
// have the IDE's answer to it (a harmless call the person allows) taken
// for the answer to the bridge's question.
func TestPeerRequestUnderBridgeCallID(t *testing.T) {
	for _, spell := range []string{"plain", "escaped"} {
		t.Run(spell, func(t *testing.T) {
			h := newHarness(t, acpwire.Options{})
			// The agent learns the bridge's prefix from a call made to it.
			first := h.callAsync(acpwire.ClientToAgent, "session/new", map[string]any{"cwd": "/w"})
			var seen struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal([]byte(h.AgentGets()), &seen); err != nil {
				t.Fatal(err)
			}
			h.FromAgent(`{"jsonrpc":"2.0","id":"` + seen.ID + `","result":{"sessionId":"s2"}}`)
			<-first
			next := strings.TrimSuffix(seen.ID, "1") + "2"
			id, _ := json.Marshal(next)
			if spell == "escaped" {
				id = []byte(`"\u0061` + next[1:] + `"`)
			}
			h.FromAgent(`{"jsonrpc":"2.0","id":` + string(id) + `,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"harmless","title":"read README"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}}`)
			// A marker after it: once the IDE has it, the request was handled.
			h.FromAgent(`{"jsonrpc":"2.0","method":"marker"}`)
			type asked struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			var harmless *asked
			for {
				var m asked
				if err := json.Unmarshal([]byte(h.ClientGets()), &m); err != nil {
					t.Fatal(err)
				}
				if m.Method == "marker" {
					break
				}
				harmless = &m
			}
			done := h.callAsync(acpwire.AgentToClient, "session/request_permission", map[string]any{"sessionId": "s", "toolCall": map[string]any{"toolCallId": "bridge", "title": "rm -rf x"}})
			var bridge asked
			if err := json.Unmarshal([]byte(h.ClientGets()), &bridge); err != nil {
				t.Fatal(err)
			}
			if harmless != nil {
				// The person allows the harmless call first.
				h.FromClient(`{"jsonrpc":"2.0","id":` + string(harmless.ID) + `,"result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`)
			}
			h.FromClient(`{"jsonrpc":"2.0","id":` + string(bridge.ID) + `,"result":{"outcome":{"outcome":"selected","optionId":"reject"}}}`)
			if r := <-done; r.err != nil || !strings.Contains(string(r.raw), `"reject"`) {
				t.Fatalf("the bridge's question got %s, %v; want the person's reject", r.raw, r.err)
			}
			var refused struct {
				ID    json.RawMessage `json:"id"`
				Error *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(h.AgentGets()), &refused); err != nil || refused.Error == nil || refused.Error.Code != -32600 {
				t.Fatalf("the agent's request under the bridge's id was not refused: %+v, %v", refused, err)
			}
		})
	}
}
