package e2e

import (
	"strings"
	"testing"
)

// TestMCPOverACPCleanedFileURI runs the IDE of TestMCPOverACPResourceRead
// (its server's open_uri tool and resources/read open a file:// URI with
// Node's fileURLToPath) and an agent that hands it a file URI spelled as
// only a WHATWG URL parser reads it: with a C0 control character before
// the scheme, a NUL, or a tab or line feed inside it. Node drops those
// characters and opens the file; under deny Read(./*.key), a rule
// anchored at the workspace that no other spelling of the string meets,
// the key must not reach the agent, nor the audit log beside the
// workspace, which self-protection keeps from it. The plain URI (the
// control) is refused as before.
func TestMCPOverACPCleanedFileURI(t *testing.T) {
	s := needSuite(t)
	const secret = "ghp_mcpcleaneduricanary0123456789abcdAB"
	for _, tt := range []struct{ name, params string }{
		{"control-plain-uri", `{"name":"open_uri","arguments":{"uri":"$TARGET"}}`},
		{"c0-before-scheme", `{"name":"open_uri","arguments":{"uri":"\u0001$TARGET"}}`},
		{"unit-separator-before-scheme", `{"name":"open_uri","arguments":{"uri":"\u001f$TARGET"}}`},
		{"nul-before-scheme", `{"name":"open_uri","arguments":{"uri":"\u0000file://$TARGETPATH"}}`},
		{"tab-inside-scheme", `{"name":"open_uri","arguments":{"uri":"fi\tle://$TARGETPATH"}}`},
		{"line-feed-after-scheme", `{"name":"open_uri","arguments":{"uri":"file\n://$TARGETPATH"}}`},
		{"c0-before-scheme-audit-log", `{"name":"open_uri","arguments":{"uri":"\u0001file://$TARGETPATH/../../audit.jsonl"}}`},
		{"resource-c0-before-scheme", `{"uri":"\u0001$TARGET"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			method := "resources/read"
			if strings.Contains(tt.params, `"name"`) {
				method = "tools/call"
			}
			_, out := runMCPIDE(t, s, "  default: allow\n  deny:\n    - Read(./*.key)\n", "a.key", "TOKEN="+secret+"\n",
				"MCP_METHOD="+method, "MCP_PARAMS="+tt.params)
			answer := string(out)
			if i := strings.Index(answer, "mcp-agent: answer"); i >= 0 {
				answer = answer[i:]
			}
			if strings.Contains(answer, secret) || strings.Contains(answer, "bridge.start") {
				t.Fatalf("the key or the audit log reached the agent through the file URI\n%s", out)
			}
			if !strings.Contains(answer, "acp-bridge") {
				t.Fatalf("the agent was not told the bridge refused the call\n%s", out)
			}
		})
	}
}
