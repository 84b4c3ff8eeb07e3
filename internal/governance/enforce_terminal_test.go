package governance

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestEnforceTerminalScope: the agent uses only the terminals the IDE
// created for it in the same session; a guessed id, another session's
// terminal and a tool call showing an unknown terminal are refused and
// recorded, and a known terminal's output is recorded.
func TestEnforceTerminalScope(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	refused := func(id int, line string) {
		t.Helper()
		h.agent(line, id)
		m := h.nextAtAgent()
		if code, _ := get(m, "error", "code").(float64); code != acpwire.CodeInvalidRequest {
			t.Fatalf("agent got %v for %s, want -32600", m, line)
		}
	}
	// Nothing created yet: a guessed id.
	refused(20, `{"jsonrpc":"2.0","id":%d,"method":"terminal/output","params":{"sessionId":"s1","terminalId":"term-1"}}`)
	refused(21, `{"jsonrpc":"2.0","id":%d,"method":"terminal/kill","params":{"sessionId":"s1","terminalId":"term-1"}}`)
	refused(22, `{"jsonrpc":"2.0","id":%d,"method":"terminal/release","params":{"sessionId":"s1"}}`)

	// The IDE creates term-7 for s1.
	h.agent(`{"jsonrpc":"2.0","id":30,"method":"terminal/create","params":{"sessionId":"s1","command":"echo","args":["hi"],"cwd":%q}}`, h.root)
	if m := h.nextAtIDE(); m["method"] != "terminal/create" {
		t.Fatalf("IDE got %v, want terminal/create", m)
	}
	h.ide(`{"jsonrpc":"2.0","id":30,"result":{"terminalId":"term-7"}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":31,"method":"terminal/output","params":{"sessionId":"s1","terminalId":"term-7"}}`)
	if m := h.nextAtIDE(); m["method"] != "terminal/output" {
		t.Fatalf("IDE got %v, want terminal/output for a terminal it created", m)
	}
	if len(h.rec.find("terminal.use", "")) == 0 {
		t.Error("terminal/output of a known terminal not recorded")
	}

	// Another session may not use it.
	h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, h.root)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":5,"result":{"sessionId":"s2"}}`)
	h.nextAtIDE()
	refused(32, `{"jsonrpc":"2.0","id":%d,"method":"terminal/wait_for_exit","params":{"sessionId":"s2","terminalId":"term-7"}}`)

	// A tool call showing a terminal the IDE did not create is dropped, and the person told.
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"tool_call","toolCallId":"t9","title":"build","kind":"other","status":"in_progress","content":[{"type":"terminal","terminalId":"term-7"}]}}}`)
	h.toolCallDroppedAndTold("the tool call showing another session's terminal")
	// One showing its own terminal passes.
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t10","title":"echo","kind":"other","status":"in_progress","content":[{"type":"terminal","terminalId":"term-7"}]}}}`)
	if m := h.nextAtIDE(); get(m, "params", "update", "toolCallId") != "t10" {
		t.Fatalf("IDE got %v, want tool call t10", m)
	}
	if n := len(h.rec.find("message.refused", "deny")); n != 5 {
		t.Errorf("%d message.refused records, want 5", n)
	}
}

// TestEnforceBridgeToolCallIDs: the acp-bridge- namespace of toolCallIds
// is the bridge's own (its permission requests); an agent's tool call or
// permission request in it is refused, and the bridge's own ids carry a
// nonce of the run.
func TestEnforceBridgeToolCallIDs(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"acp-bridge-approval-1","title":"ls","kind":"execute","status":"pending","rawInput":{"command":"ls"}}}}`)
	h.toolCallDroppedAndTold("a tool call in the bridge's namespace")
	if m := h.nextAtAgent(); m["method"] != "session/cancel" {
		t.Fatalf("agent got %v, want the turn cancelled", m)
	}
	h.agent(`{"jsonrpc":"2.0","id":40,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"acp-bridge-approval-2","title":"ls"},"options":[{"optionId":"a","name":"Allow","kind":"allow_once"}]}}`)
	if m := h.nextAtAgent(); get(m, "error", "code") != float64(acpwire.CodeInvalidRequest) {
		t.Fatalf("agent got %v, want -32600", m)
	}
	// The bridge's own ask.
	h.agent(`{"jsonrpc":"2.0","id":41,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"x"}}`, h.root+"/README.md")
	ask := h.nextAtIDE()
	id, _ := get(ask, "params", "toolCall", "toolCallId").(string)
	if ask["method"] != "session/request_permission" || !strings.HasPrefix(id, "acp-bridge-approval-") || len(id) < len("acp-bridge-approval-1")+8 {
		t.Fatalf("IDE got %v; want the bridge's ask with a toolCallId carrying a nonce", ask)
	}
}

// toolCallDroppedAndTold reads what reaches the IDE up to the bridge's
// notice to the person (a message chunk naming acp-bridge), failing if a
// tool call, the one the agent just sent (what), comes first.
func (h *harness) toolCallDroppedAndTold(what string) {
	h.t.Helper()
	for {
		m := h.nextAtIDE()
		if get(m, "params", "update", "sessionUpdate") == "tool_call" {
			h.t.Fatalf("IDE got %s: %v", what, m)
		}
		if text, _ := get(m, "params", "update", "content", "text").(string); strings.Contains(text, "acp-bridge") {
			return
		}
	}
}
