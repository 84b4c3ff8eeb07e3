package governance

import (
	"strings"
	"testing"
)

// mcpHarness opens session s1 in which the IDE offers the ACP-transport
// MCP server "ide" (serverId srv-1), under a policy denying its delete_file
// tool, asking about its run tool and allowing the rest.
func mcpHarness(t *testing.T) *harness {
	t.Helper()
	rules := "  default: allow\n  deny:\n    - mcp__ide__delete_file\n    - mcp__other__*\n    - Read(**/.env)\n  ask:\n    - mcp__ide__run\n"
	h := newHarness(t, EnforceOptions{Engine: NewEngine(testPolicy(t, rules), EngineOptions{})})
	h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[{"type":"acp","name":"ide","serverId":"srv-1"},{"name":"local","command":"/bin/true","args":[],"env":[]}]}}`, h.root)
	if m := h.nextAtAgent(); m["method"] != "session/new" {
		t.Fatalf("agent got %v, want session/new", m)
	}
	h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`)
	if m := h.nextAtIDE(); get(m, "result", "sessionId") != "s1" {
		t.Fatalf("IDE got %v, want the session/new result", m)
	}
	return h
}

// TestMCPToolCallJudged: a tools/call the agent sends an MCP server the IDE
// offered over ACP (mcp/message) is decided as the tool
// mcp__<server>__<tool>: a denied tool, a serverId no session offered, and
// a call the bridge cannot read as the IDE would never reach the IDE; an
// allowed one and the agent's other MCP messages do.
func TestMCPToolCallJudged(t *testing.T) {
	tests := []struct {
		name, line string
		refused    bool
		why        string
	}{
		{"denied tool", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"name":"delete_file","arguments":{"path":"%[1]s/a.txt"}}}}`, true, "mcp__ide__delete_file"},
		{"denied tool, notification", `{"jsonrpc":"2.0","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"name":"delete_file","arguments":{}}}}`, true, ""},
		{"path argument the policy denies reading", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"name":"read","arguments":{"file_path":"%[1]s/.env"}}}}`, true, ".env"},
		{"plain path under a name of the server's", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"name":"open","arguments":{"target":"%[1]s/.env"}}}}`, true, "which a tool may open as a file"},
		{"relative path deep in the arguments", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"name":"open","arguments":{"opts":[{"ref":"src/../.env"}]}}}}`, true, ".env"},
		{"route argument", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"name":"fetch","arguments":{"route":"/api/users","id":"abc"}}}}`, false, ""},
		{"server no session offered", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-9","requestId":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}}`, true, "no session the IDE opened offered"},
		{"duplicate tool name", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"name":"echo","name":"delete_file","arguments":{}}}}`, true, "more than one way"},
		{"tool name in another case", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"name":"echo","Name":"delete_file","arguments":{}}}}`, true, "case-insensitively"},
		{"method in another case", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/list","Method":"tools/call","params":{"name":"delete_file","arguments":{}}}}`, true, "case-insensitively"},
		{"no tool name", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"arguments":{}}}}`, true, "names no tool"},
		{"params not an object", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":["delete_file"]}}`, true, "not an object"},
		{"allowed tool", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}}`, false, ""},
		{"tools/list", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":1,"method":"tools/list"}}`, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := mcpHarness(t)
			h.agent("%s", h.rooted(tt.line))
			if !tt.refused {
				if m := h.nextAtIDE(); m["method"] != "mcp/message" {
					t.Fatalf("IDE got %v, want the mcp/message", m)
				}
				return
			}
			if strings.Contains(tt.line, `"id":"m1"`) {
				m := h.nextAtAgent()
				msg, _ := get(m, "error", "message").(string)
				if m["id"] != "m1" || !strings.Contains(msg, tt.why) {
					t.Fatalf("agent got %v, want a refusal about %q", m, tt.why)
				}
			}
			h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"MARK"}}}}`)
			for {
				m := h.nextAtIDE()
				if m["method"] == "mcp/message" {
					t.Fatalf("the IDE got the refused call: %v", m)
				}
				if get(m, "params", "update", "content", "text") == "MARK" {
					break
				}
			}
		})
	}
}

// TestMCPToolCallAsks: a tools/call of a tool the policy asks about puts a
// permission request of the bridge's own to the person; rejected, the call
// never reaches the IDE's server, allowed, it does.
func TestMCPToolCallAsks(t *testing.T) {
	for _, allow := range []bool{false, true} {
		h := mcpHarness(t)
		h.agent(`{"jsonrpc":"2.0","id":"m2","method":"mcp/message","params":{"serverId":"srv-1","requestId":2,"method":"tools/call","params":{"name":"run","arguments":{"cmd":"make"}}}}`)
		ask := h.nextAtIDE()
		title, _ := get(ask, "params", "toolCall", "title").(string)
		if ask["method"] != "session/request_permission" || !strings.Contains(title, "mcp__ide__run") {
			t.Fatalf("IDE got %v, want a permission request about mcp__ide__run", ask)
		}
		option := "reject"
		if allow {
			option = "allow"
		}
		h.ide(`{"jsonrpc":"2.0","id":%q,"result":{"outcome":{"outcome":"selected","optionId":%q}}}`, ask["id"], option)
		if allow {
			if m := h.nextAtIDE(); m["method"] != "mcp/message" {
				t.Fatalf("IDE got %v after the person allowed it, want the mcp/message", m)
			}
			continue
		}
		if m := h.nextAtAgent(); m["id"] != "m2" || m["error"] == nil {
			t.Fatalf("agent got %v, want a refusal", m)
		}
		h.marker()
	}
}
