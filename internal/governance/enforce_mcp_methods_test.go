package governance

import (
	"net/url"
	"strings"
	"testing"
)

// TestMCPMessagesJudged: the agent's MCP messages other than tools/call are
// judged as what the IDE's server does with them. A resource with a
// file:// URI is a read of the file it names, under every spelling a
// server's reader may take it (a read the policy denies, or a URI the
// bridge cannot place, never reaches the IDE); a request the policy has no
// rule for (prompts/get, completion/complete, a resource of another scheme,
// a method the bridge does not know, a spelling variant of tools/call)
// asks the person; the MCP protocol's own messages and an allowed read
// pass.
func TestMCPMessagesJudged(t *testing.T) {
	const (
		refused = "refused"
		asked   = "asked"
		passed  = "passed"
	)
	msg := func(method, params string) string {
		return `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"serverId":"srv-1","requestId":"r1","method":"` + method + `","params":` + params + `}}`
	}
	tests := []struct {
		name, line, want, why string
	}{
		{"read of a denied file", msg("resources/read", `{"uri":"file://%[1]s/.env"}`), refused, ".env"},
		{"read of a denied file, escaped", msg("resources/read", `{"uri":"file://%[1]s/%2Eenv"}`), refused, "Read(**/.env)"},
		{"read of a denied file, localhost", msg("resources/read", `{"uri":"file://localhost%[1]s/.env"}`), refused, ".env"},
		{"subscribe to a denied file", msg("resources/subscribe", `{"uri":"file://%[1]s/.env"}`), refused, ".env"},
		{"scheme in another case", msg("resources/read", `{"uri":"FILE://%[1]s/.env"}`), refused, "different files"},
		{"file URI with a query", msg("resources/read", `{"uri":"file://%[1]s/.env?x=a.txt"}`), refused, "different files"},
		{"file URI without //", msg("resources/read", `{"uri":"file:%[1]s/.env"}`), refused, "no absolute path"},
		{"relative file URI", msg("resources/read", `{"uri":"file:.env"}`), refused, "no absolute path"},
		{"file URI of another host", msg("resources/read", `{"uri":"file://server%[1]s/a.txt"}`), refused, "on host"},
		{"escaped slash", msg("resources/read", `{"uri":"file://%[1]s%2F.env"}`), refused, "hides a /"},
		{"uri in another case", msg("resources/read", `{"uri":"file://%[1]s/a.txt","URI":"file://%[1]s/.env"}`), refused, "case-insensitively"},
		{"duplicate uri", msg("resources/read", `{"uri":"file://%[1]s/a.txt","uri":"file://%[1]s/.env"}`), refused, "more than one way"},
		{"resource params not an object", msg("resources/read", `["file://%[1]s/.env"]`), refused, "not an object"},
		{"server no session offered", strings.Replace(msg("prompts/get", `{"name":"p"}`), "srv-1", "srv-9", 1), refused, "no session the IDE opened offered"},
		{"older shape: tools/call on a connection", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"connectionId":"c1","method":"tools/call","params":{"name":"delete_file","arguments":{}}}}`, refused, "no session the IDE opened offered"},
		{"older shape: resources/read on a connection", `{"jsonrpc":"2.0","id":"m1","method":"mcp/message","params":{"connectionId":"c1","method":"resources/read","params":{"uri":"file://%[1]s/.env"}}}`, refused, "no session the IDE opened offered"},
		{"prompts/get", msg("prompts/get", `{"name":"review","arguments":{"file":".env"}}`), asked, ""},
		{"completion/complete", msg("completion/complete", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"x"}}`), asked, ""},
		{"resource of another scheme", msg("resources/read", `{"uri":"zed://buffer/1"}`), asked, ""},
		{"unknown method", msg("workspace/exec", `{"cmd":"rm x"}`), asked, ""},
		{"tools/call in another case", msg("Tools/Call", `{"name":"delete_file","arguments":{}}`), asked, ""},
		{"tools/call with a trailing space", msg("tools/call ", `{"name":"delete_file","arguments":{}}`), asked, ""},
		{"tool argument naming a denied file by URI", msg("tools/call", `{"name":"fetch","arguments":{"uri":"file://%[1]s/.env"}}`), refused, ".env"},
		{"tool argument naming a denied file by URI, nested", msg("tools/call", `{"name":"fetch","arguments":{"a":[{"resource":"file://localhost%[1]s/%2Eenv"}]}}`), refused, ".env"},
		{"tool argument with a file URI of another host", msg("tools/call", `{"name":"fetch","arguments":{"url":"file://server%[1]s/a.txt"}}`), refused, "on host"},
		{"tool argument naming an allowed file by URI", msg("tools/call", `{"name":"fetch","arguments":{"uri":"file://%[1]s/a.txt"}}`), passed, ""},
		{"read of an allowed file", msg("resources/read", `{"uri":"file://%[1]s/a.txt"}`), passed, ""},
		{"initialize", msg("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"a","version":"1"}}`), passed, ""},
		{"resources/list", msg("resources/list", `{}`), passed, ""},
		{"notifications/initialized", `{"jsonrpc":"2.0","method":"mcp/message","params":{"serverId":"srv-1","requestId":"r1","method":"notifications/initialized"}}`, passed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := mcpHarness(t)
			h.agent("%s", h.rooted(tt.line))
			switch tt.want {
			case passed:
				if m := h.nextAtIDE(); m["method"] != "mcp/message" {
					t.Fatalf("IDE got %v, want the mcp/message", m)
				}
			case asked:
				ask := h.nextAtIDE()
				if ask["method"] != "session/request_permission" {
					t.Fatalf("IDE got %v, want a permission request", ask)
				}
				h.ide(`{"jsonrpc":"2.0","id":%q,"result":{"outcome":{"outcome":"selected","optionId":"reject"}}}`, ask["id"])
				if m := h.nextAtAgent(); m["id"] != "m1" || m["error"] == nil {
					t.Fatalf("agent got %v, want a refusal", m)
				}
				h.noMCPBeforeMarker()
			case refused:
				m := h.nextAtAgent()
				msg, _ := get(m, "error", "message").(string)
				if m["id"] != "m1" || !strings.Contains(msg, tt.why) {
					t.Fatalf("agent got %v, want a refusal about %q", m, tt.why)
				}
				h.noMCPBeforeMarker()
			}
		})
	}
}

// TestMCPNotificationNeedingApprovalDropped: an MCP notification the
// person would have to approve has no answer to wait for: it is dropped.
func TestMCPNotificationNeedingApprovalDropped(t *testing.T) {
	h := mcpHarness(t)
	h.agent(`{"jsonrpc":"2.0","method":"mcp/message","params":{"serverId":"srv-1","requestId":"r1","method":"prompts/get","params":{"name":"p"}}}`)
	h.noMCPBeforeMarker()
}

// noMCPBeforeMarker sends the agent's marker chunk and fails if the IDE
// gets an mcp/message before it (the person being told is fine).
func (h *harness) noMCPBeforeMarker() {
	h.t.Helper()
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"MARK"}}}}`)
	for {
		m := h.nextAtIDE()
		if m["method"] == "mcp/message" {
			h.t.Fatalf("the IDE got the refused message: %v", m)
		}
		if get(m, "params", "update", "content", "text") == "MARK" {
			return
		}
	}
}

// FuzzMCPFilePaths: a file URI the bridge places gives absolute paths, the
// first the one Go's URL parser (as Node's fileURLToPath) decodes, and a
// URI that is not file: gives none.
func FuzzMCPFilePaths(f *testing.F) {
	for _, s := range []string{"file:///ws/.env", "file:///ws/%2Eenv", "file://localhost/ws/a.txt", "FILE:///x", "file:.env",
		"file://h/x", "file:///a%2Fb", "zed://buffer/1", "file:///a?b#c", "file:////x", "file:///%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		paths, isFile, err := mcpFilePaths(uri)
		if !isFile && (err != nil || paths != nil) {
			t.Fatalf("%q: not a file URI but paths %q, err %v", uri, paths, err)
		}
		if err != nil {
			return
		}
		if isFile && len(paths) == 0 {
			t.Fatalf("%q: a placed file URI with no path", uri)
		}
		for _, p := range paths {
			if !strings.HasPrefix(p, "/") {
				t.Fatalf("%q: path %q is not absolute", uri, p)
			}
		}
		if isFile {
			u, perr := url.Parse(uri)
			if perr != nil || u.Path != paths[0] {
				t.Fatalf("%q: first path %q, url.Parse gives %v (%v)", uri, paths[0], u, perr)
			}
		}
	})
}
