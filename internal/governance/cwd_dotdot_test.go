package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCwdDotDotAfterLink: a request whose cwd holds ".." after a link is
// decided where the kernel puts the process: with l a link to
// drafts/deep, a command run in WS/l/.. writes drafts/plan.md, which the
// policy asks about, not WS/plan.md, which it allows.
func TestCwdDotDotAfterLink(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "drafts", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "drafts", "deep"), filepath.Join(root, "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "other", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "other", "deep"), filepath.Join(root, "o")); err != nil {
		t.Fatal(err)
	}
	p := testPolicy(t, "  default: ask\n  ask:\n    - Edit(./drafts/**)\n    - Edit(./top.txt)\n  allow:\n    - Edit(./**)\n    - Bash(echo:*)\n    - mcp__ide__open\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, tt := range []struct {
		name string
		req  Request
		want Value
	}{
		{"terminal in l/..", Request{Action: ActionTerminalCreate, Command: "echo pwned > plan.md", Cwd: root + "/l/.."}, RequireApproval},
		{"terminal argv in l/..", Request{Action: ActionTerminalCreate, Command: "echo", Argv: []string{"echo", "pwned", ">", "plan.md"}, Cwd: root + "/l/.."}, RequireApproval},
		{"execute tool in l/..", Request{Action: ActionToolCall, Kind: "execute", Command: "echo pwned > plan.md", Cwd: root + "/l/.."}, RequireApproval},
		{"terminal in l/../..", Request{Action: ActionTerminalCreate, Command: "echo pwned > drafts/plan.md", Cwd: root + "/l/../.."}, RequireApproval},
		{"the root, plainly", Request{Action: ActionTerminalCreate, Command: "echo pwned > plan.md", Cwd: root}, Allow},
		{"a plain .. ", Request{Action: ActionTerminalCreate, Command: "echo pwned > plan.md", Cwd: root + "/drafts/.."}, Allow},
		// A Node tool resolves a relative name as text: o/../top.txt is
		// WS/top.txt to it, WS/other/top.txt to the kernel.
		{"a tool's string, read as text", Request{Action: ActionToolCall, Tool: "mcp__ide__open", Mentioned: []string{"./top.txt"}, Cwd: root + "/o/.."}, RequireApproval},
		{"a command's name, read by the kernel", Request{Action: ActionTerminalCreate, Command: "echo x > top.txt", Cwd: root + "/o/.."}, Allow},
		{"a tool's string, read by the kernel", Request{Action: ActionToolCall, Tool: "mcp__ide__open", Mentioned: []string{"./plan.md"}, Cwd: root + "/l/.."}, RequireApproval},
		{"a tool's string elsewhere", Request{Action: ActionToolCall, Tool: "mcp__ide__open", Mentioned: []string{"./a.txt"}, Cwd: root}, Allow},
		{"drafts, plainly", Request{Action: ActionTerminalCreate, Command: "echo pwned > plan.md", Cwd: root + "/drafts"}, RequireApproval},
	} {
		if d := e.Decide(tt.req); d.Value != tt.want {
			t.Errorf("%s: Decide = %v (%s); want %v", tt.name, d.Value, d.Reason, tt.want)
		}
	}
	checkFunc(t, "hasDotDot", hasDotDot, map[string]bool{"/a/..": true, "/a/../b": true, "..": true, "/a/..b": false, "/a/b..": false, "/a/...": false, "/a/b": false})
}
