package adapter

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// TestPolicyDeciderMCPToolArguments holds the hook to the files a tool of
// an MCP server (mcp__server__tool) may open: Claude Code hands the tool
// its input as it is, and the server may open any string of it as a file,
// under whatever member name (target, item) and at whatever depth. A
// string that reads as a path (absolute, "~/...", or relative to the cwd
// when it holds a '/' or names a file there) is decided where a rule
// naming paths or self-protection restricts it; routes, identifiers and
// files no rule restricts say nothing.
func TestPolicyDeciderMCPToolArguments(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	pol := filepath.Join(ws, "GOVERNANCE.md")
	for name, text := range map[string]string{pol: spacePolicy, filepath.Join(ws, ".env"): "TOKEN=x\n", filepath.Join(ws, "notes.txt"): "notes\n"} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := governance.LoadPolicy(pol)
	if err != nil {
		t.Fatal(err)
	}
	e := governance.NewEngine(p, governance.EngineOptions{Home: home, Protected: []governance.ProtectedPath{{Path: pol, What: "the governance policy"}}})
	d := PolicyDeciderIn(e, Sessions{Roots: func(string) []string { return []string{ws} }})
	rows := []struct {
		name, input string
		want        Verdict
	}{
		{"an absolute path under a name of the server's", `{"target":"` + ws + `/.env"}`, Deny},
		{"a path deep in the input", `{"options":{"files":[{"item":"` + ws + `/.env"}]}}`, Deny},
		{"a relative name of an existing file", `{"ref":".env"}`, Deny},
		{"a relative path through a directory", `{"ref":"sub/../.env"}`, Deny},
		{"a home path", `{"ref":"~/.env"}`, Deny},
		{"a path ending at a NUL byte", `{"target":"` + ws + `/.env\u0000x"}`, Deny},
		{"the policy, to change", `{"dest":"GOVERNANCE.md","text":"allow"}`, Deny},
		{"Claude's settings, which do not exist yet", `{"dest":".claude/settings.json"}`, Deny},
		{"a route", `{"route":"/api/users","method":"GET"}`, Ask},
		{"an identifier", `{"id":"abc123","query":"select * from t"}`, Ask},
		{"a file the policy allows", `{"target":"` + ws + `/notes.txt"}`, Ask},
		{"a file outside the workspace no rule names", `{"target":"/etc/hostname"}`, Ask},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, err := d.DecideTool(context.Background(), ToolCall{Agent: Claude, Tool: "mcp__ide__open_file", Input: json.RawMessage(r.input), Cwd: ws, SessionID: "s"})
			if err != nil {
				t.Fatal(err)
			}
			if got.Verdict != r.want {
				t.Fatalf("verdict = %q (%s), want %q", got.Verdict, got.Reason, r.want)
			}
		})
	}
}
