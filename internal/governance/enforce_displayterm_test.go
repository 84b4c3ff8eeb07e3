package governance

import (
	"fmt"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestDisplayTerminals: an IDE that advertises _meta.terminal_output (Zed)
// shows a command the agent runs itself in a display-only terminal the
// tool_call's _meta.terminal_info names, in that session only. A tool call
// showing such a terminal passes, in the session that named it, as
// claude-agent-acp sends every Bash call to Zed; it stays no terminal the
// agent may use (terminal/output is refused), no other session may show
// it, an update cannot name one, and an IDE that does not advertise the
// capability creates none, so the call is refused there.
func TestDisplayTerminals(t *testing.T) {
	bash := func(sid, id string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"_meta":{"claudeCode":{"toolName":"Bash"},"terminal_info":{"terminal_id":%q}},"toolCallId":%q,"sessionUpdate":"tool_call","rawInput":{},"status":"pending","title":"Terminal","kind":"execute","content":[{"type":"terminal","terminalId":%q}]}}}`, sid, id, id, id)
	}
	start := func(t *testing.T, meta string) *harness {
		h := newHarness(t, EnforceOptions{})
		h.ide(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true%s}}}`, meta)
		h.nextAtAgent()
		h.agent(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"authMethods":[]}}`)
		h.nextAtIDE()
		h.openSession()
		return h
	}
	passes := func(h *harness, line, id string) {
		h.t.Helper()
		h.agent("%s", line)
		if m := h.nextAtIDE(); get(m, "params", "update", "toolCallId") != id {
			h.t.Fatalf("IDE got %v, want tool call %s", m, id)
		}
	}

	t.Run("advertised", func(t *testing.T) {
		h := start(t, `,"_meta":{"terminal_output":true}`)
		passes(h, bash("s1", "toolu_1"), "toolu_1")
		passes(h, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","status":"completed","content":[{"type":"terminal","terminalId":"toolu_1"}],"_meta":{"terminal_output":{"terminal_id":"toolu_1","data":"hi\n"}}}}}`, "toolu_1")

		// Not a terminal the agent may read or stop.
		h.agent(`{"jsonrpc":"2.0","id":20,"method":"terminal/output","params":{"sessionId":"s1","terminalId":"toolu_1"}}`)
		if code, _ := get(h.nextAtAgent(), "error", "code").(float64); code != acpwire.CodeInvalidRequest {
			t.Fatal("terminal/output of a display terminal was not refused")
		}
		// Another session does not have it.
		h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, h.root)
		h.nextAtAgent()
		h.agent(`{"jsonrpc":"2.0","id":5,"result":{"sessionId":"s2"}}`)
		h.nextAtIDE()
		h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"tool_call","toolCallId":"t2","title":"x","kind":"execute","content":[{"type":"terminal","terminalId":"toolu_1"}]}}}`)
		h.toolCallDroppedAndTold("a tool call showing another session's display terminal")
		// The IDE makes one only for a tool_call, not for an update.
		h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","_meta":{"terminal_info":{"terminal_id":"term-9"}},"content":[{"type":"terminal","terminalId":"term-9"}]}}}`)
		h.toolCallDroppedAndTold("an update naming a display terminal of its own")
	})
	t.Run("not-advertised", func(t *testing.T) {
		h := start(t, "")
		h.agent("%s", bash("s1", "toolu_1"))
		h.toolCallDroppedAndTold("a tool call showing a terminal an IDE without display terminals never made")
	})
}

// TestDisplayTerminalKeyApart: a display terminal's key cannot be reached
// by a terminal id of the agent's holding a NUL: terminal/output naming
// "toolu_1\x00display" is no terminal the IDE created.
func TestDisplayTerminalKeyApart(t *testing.T) {
	h := newHarness(t, EnforceOptions{})
	h.ide(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"terminal":true,"_meta":{"terminal_output":true}}}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"authMethods":[]}}`)
	h.nextAtIDE()
	h.openSession()
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"terminal_info":{"terminal_id":"toolu_1"}},"toolCallId":"toolu_1","sessionUpdate":"tool_call","title":"Terminal","kind":"execute","content":[{"type":"terminal","terminalId":"toolu_1"}]}}}`)
	h.nextAtIDE()
	h.agent(`{"jsonrpc":"2.0","id":21,"method":"terminal/output","params":{"sessionId":"s1","terminalId":"toolu_1\u0000display"}}`)
	if code, _ := get(h.nextAtAgent(), "error", "code").(float64); code != acpwire.CodeInvalidRequest {
		t.Fatal("terminal/output naming a display terminal's key was not refused")
	}
}
