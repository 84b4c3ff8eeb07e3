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

// TestMCPOverACPToolDenied runs an IDE on the TypeScript SDK that offers an
// MCP server over ACP (McpOverAcpProvider, server "ide", whose delete_file
// tool removes a file) behind the real bridge, and an agent that calls that
// tool directly with mcp/message, asking no one. Under deny
// mcp__ide__delete_file the file stays; without the rule (the control) the
// IDE's server deletes it, so the harness sees the effect.
func TestMCPOverACPToolDenied(t *testing.T) {
	s := needSuite(t)
	for _, tt := range []struct {
		name, rules string
		deleted     bool
	}{
		{"denied", "  default: allow\n  deny:\n    - mcp__ide__delete_file\n", false},
		{"control", "  default: allow\n  deny:\n    - mcp__other__delete_file\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			target, out := runMCPIDE(t, s, tt.rules, "important.txt", "keep me\n")
			_, statErr := os.Stat(target)
			if gone := os.IsNotExist(statErr); gone != tt.deleted {
				t.Fatalf("file deleted = %v, want %v\n%s", gone, tt.deleted, out)
			}
			if !tt.deleted && !strings.Contains(string(out), "mcp__ide__delete_file") {
				t.Errorf("the agent was not told the policy refused mcp__ide__delete_file:\n%s", out)
			}
		})
	}
}

// runMCPIDE runs e2e/client/mcp-ide.mjs: an IDE on the TypeScript SDK
// offering its MCP server "ide" over ACP, behind the real bridge under a
// policy of rules (YAML under rules:), with an agent that sends the server
// one mcp/message (env sets MCP_METHOD and MCP_PARAMS; a tools/call of
// delete_file on the target without them). The workspace holds file with
// content; target is its path. It returns the combined output of the IDE,
// the bridge and the agent.
func runMCPIDE(t *testing.T, s *suiteEnv, rules, file, content string, env ...string) (target string, out []byte) {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	target = filepath.Join(ws, file)
	if err := os.WriteFile(target, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(dir, "GOVERNANCE.md")
	text := "---\nschema: governance.workspace/v1\nname: mcp-over-acp\ntitle: MCP over ACP\ndescription: The IDE's MCP server under the policy.\nversion: 1.0.0\nrules:\n" + rules + "---\n"
	if err := os.WriteFile(policy, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.node, filepath.Join(filepath.Dir(s.client), "mcp-ide.mjs"),
		s.bridge, policy, filepath.Join(dir, "audit.jsonl"), ws, target)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcp-ide.mjs: %v\n%s", err, out)
	}
	return target, out
}
