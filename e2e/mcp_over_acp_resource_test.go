package e2e

import (
	"strings"
	"testing"
)

// TestMCPOverACPResourceRead runs the IDE of TestMCPOverACPToolDenied,
// whose MCP server "ide" also answers resources/read of a file:// URI, and
// its open_uri tool called with one, with the file's text, and an agent
// that reads a resource of that server, or calls that tool, directly with
// mcp/message. A file:// URI is the file it names: under
// deny Read(**/.env) the .env's secret must not reach the agent, while a
// file the policy allows (the control) still does, so the harness sees the
// effect.
func TestMCPOverACPResourceRead(t *testing.T) {
	s := needSuite(t)
	const secret = "ghp_mcpresourcecanary0123456789abcdefAB"
	for _, tt := range []struct {
		name, file, params string // params of resources/read, or of tools/call when they name a tool
		reaches            bool
	}{
		{"env-denied", ".env", `{"uri":"$TARGET"}`, false},
		{"control", "notes.txt", `{"uri":"$TARGET"}`, true},
		{"tool-uri-env-denied", ".env", `{"name":"open_uri","arguments":{"uri":"$TARGET"}}`, false},
		{"tool-uri-control", "notes.txt", `{"name":"open_uri","arguments":{"uri":"$TARGET"}}`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			method := "resources/read"
			if strings.Contains(tt.params, `"name"`) {
				method = "tools/call"
			}
			_, out := runMCPIDE(t, s, "  default: allow\n  deny:\n    - Read(**/.env)\n", tt.file, "TOKEN="+secret+"\n",
				"MCP_METHOD="+method, "MCP_PARAMS="+tt.params)
			if got := strings.Contains(string(out), "mcp-agent: answer") && strings.Contains(string(out), secret); got != tt.reaches {
				t.Fatalf("the file's content reached the agent = %v, want %v\n%s", got, tt.reaches, out)
			}
		})
	}
}
