package governance

import (
	"fmt"
	"strings"
	"testing"
)

// floodFromAgent streams enough agent text through the bridge, each chunk
// read by the IDE, that the read blocks in use when it starts have been
// released, poisoned (TestMain) and read into again when it returns.
func (h *harness) floodFromAgent() {
	h.t.Helper()
	for i := range 3 * 64 {
		text := fmt.Sprintf("flood %03d ", i) + strings.Repeat("f", 1000)
		h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}}}`, text)
		if m := h.nextAtIDE(); get(m, "params", "update", "content", "text") != text {
			h.t.Fatalf("IDE got %v, want flood chunk %d", m, i)
		}
	}
}

// floodFromIDE does what floodFromAgent does on the IDE's side, with
// notifications: a block that holds a request is never read into again
// (acpwire releases a request's block to the garbage collector, not to the
// pool), so only a flood of other messages gets blocks poisoned.
func (h *harness) floodFromIDE() {
	h.t.Helper()
	for i := range 3 * 64 {
		text := fmt.Sprintf("flood %03d ", i) + strings.Repeat("n", 1000)
		h.ide(`{"jsonrpc":"2.0","method":"_test/flood","params":{"sessionId":"s1","text":%q}}`, text)
		if m := h.nextAtAgent(); get(m, "params", "text") != text {
			h.t.Fatalf("agent got %v, want flood notification %d", m, i)
		}
	}
}

// wantNoPoison fails when a record holds the poison of a reused read block.
func (h *harness) wantNoPoison() {
	h.t.Helper()
	h.rec.mu.Lock()
	defer h.rec.mu.Unlock()
	for _, r := range h.rec.events {
		if s := recordText(r.ev); strings.Contains(s, "####") {
			h.t.Errorf("record %s of %s holds the poison of a reused read block: %.200s", r.ev.Action, r.ev.Subject.Ref, s)
		}
	}
}

// TestKeepsNoMessageBytesHeld: what the Enforcer keeps of a notification
// or response past its handler (a tool call's input while the call runs)
// and what it hands the audit log (an IDE's error answer) must be copies:
// each case keeps going until the blocks its messages were read into have
// been poisoned and read into again (TestMain), then checks the records
// against what was sent. (A request's block is never read into again, so
// what is kept of requests is held to a memory bound instead:
// TestEnforceHeldPermissionsAreLight.)
func TestKeepsNoMessageBytesHeld(t *testing.T) {
	t.Run("tool call input while the call runs", func(t *testing.T) {
		h := sessionHarness(t, EnforceOptions{})
		input := h.root + "/src/kept.go"
		h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read","kind":"read","status":"in_progress","rawInput":{"path":%q},"locations":[{"path":%q}]`, input, input))
		h.wantForwarded("c1")
		h.floodFromAgent()
		h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"done"}}]`))
		h.wantForwarded("c1")
		h.marker()
		h.wantNoPoison()
		evs := h.rec.find("tool.call", "")
		if len(evs) == 0 {
			t.Fatal("no tool.call record")
		}
		if s := recordText(evs[len(evs)-1].ev); !strings.Contains(s, input) {
			t.Errorf("the call's last record lacks its input %q: %s", input, s)
		}
	})
	t.Run("permission answered with an error", func(t *testing.T) {
		h := sessionHarness(t, EnforceOptions{})
		h.floodFromIDE() // past the block session/new was read into
		h.agent("%s", editPermission(40, "w1", h.root+"/README.md"))
		if m := h.nextAtIDE(); m["method"] != "session/request_permission" {
			t.Fatalf("IDE got %v, want the permission request", m)
		}
		h.ide(`{"jsonrpc":"2.0","id":40,"error":{"code":-32000,"message":"IDE-ERROR-TEXT"}}`)
		h.nextAtAgent()
		h.floodFromIDE()
		h.wantNoPoison()
		evs := h.rec.find("approval.recorded", "")
		if len(evs) != 1 || !strings.Contains(recordText(evs[0].ev), "IDE-ERROR-TEXT") {
			t.Errorf("approval records lack the IDE's error: %+v", evs)
		}
	})
}
