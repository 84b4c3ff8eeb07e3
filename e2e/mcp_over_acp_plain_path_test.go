package e2e

import (
	"strings"
	"testing"
)

// TestMCPOverACPPlainPathArgument runs the IDE of TestMCPOverACPToolDenied,
// whose MCP server "ide" has an open_file tool returning the text of the
// file a target, item or ref member of its arguments names, at any depth,
// as a plain path (a relative one against the workspace), and an agent
// that calls that tool directly with mcp/message. No member name says the
// server opens the string, but it does: under deny Read(**/.env) the
// .env's secret must not reach the agent, whatever member holds its path
// and however it is written, while a file the policy allows (the control)
// still does, so the harness sees the effect.
func TestMCPOverACPPlainPathArgument(t *testing.T) {
	s := needSuite(t)
	const secret = "ghp_mcpplainpathcanary0123456789abcdefAB"
	for _, tt := range []struct {
		name, file, args string // the open_file tool's arguments
		reaches          bool
	}{
		{"absolute-env-denied", ".env", `{"target":"$TARGETPATH"}`, false},
		{"nested-env-denied", ".env", `{"options":{"files":[{"item":"$TARGETPATH"}]}}`, false},
		{"relative-env-denied", ".env", `{"ref":".env"}`, false},
		{"dotdot-env-denied", ".env", `{"ref":"sub/../.env"}`, false},
		{"control", "notes.txt", `{"target":"$TARGETPATH"}`, true},
		{"relative-control", "notes.txt", `{"ref":"notes.txt"}`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, out := runMCPIDE(t, s, "  default: allow\n  deny:\n    - Read(**/.env)\n", tt.file, "TOKEN="+secret+"\n",
				"MCP_METHOD=tools/call", `MCP_PARAMS={"name":"open_file","arguments":`+tt.args+`}`)
			if got := strings.Contains(string(out), "mcp-agent: answer") && strings.Contains(string(out), secret); got != tt.reaches {
				t.Fatalf("the file's content reached the agent = %v, want %v\n%s", got, tt.reaches, out)
			}
			if !tt.reaches && !strings.Contains(string(out), "which a tool may open as a file") {
				t.Errorf("the agent was not told why the policy refused the call:\n%s", out)
			}
		})
	}
}
