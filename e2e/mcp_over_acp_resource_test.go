package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
			dir := t.TempDir()
			ws := filepath.Join(dir, "ws")
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(ws, tt.file)
			if err := os.WriteFile(target, []byte("TOKEN="+secret+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			policy := filepath.Join(dir, "GOVERNANCE.md")
			text := "---\nschema: governance.workspace/v1\nname: mcp-over-acp\ntitle: MCP over ACP\ndescription: The IDE's MCP resources under the policy.\nversion: 1.0.0\nrules:\n  default: allow\n  deny:\n    - Read(**/.env)\n---\n"
			if err := os.WriteFile(policy, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, s.node, filepath.Join(filepath.Dir(s.client), "mcp-ide.mjs"),
				s.bridge, policy, filepath.Join(dir, "audit.jsonl"), ws, target)
			method := "resources/read"
			if strings.Contains(tt.params, `"name"`) {
				method = "tools/call"
			}
			cmd.Env = append(os.Environ(), "MCP_METHOD="+method, "MCP_PARAMS="+tt.params)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("mcp-ide.mjs: %v\n%s", err, out)
			}
			if got := strings.Contains(string(out), "mcp-agent: answer") && strings.Contains(string(out), secret); got != tt.reaches {
				t.Fatalf("the file's content reached the agent = %v, want %v\n%s", got, tt.reaches, out)
			}
		})
	}
}
