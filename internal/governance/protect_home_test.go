package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHomeAgentConfigProtected: the agents read their user configuration
// in the home directory as they read a workspace's (Claude Code's
// ~/.claude/settings.json hooks and ~/.claude/skills, Gemini CLI's
// ~/.gemini and ~/.agents/skills, Codex's ~/.codex), and Claude Code its
// MCP servers from ~/.claude.json. A policy that lets the agent write in
// the home directory (Edit(~/**)) must not let it write those: the write
// is refused as the same file in the workspace is, whatever the person
// approves, by a tool's path, through a link to the home directory and by
// a command. Other files in the home directory follow the rule.
func TestHomeAgentConfigProtected(t *testing.T) {
	tmp := tempTree(t, []string{"ws", "home/.claude", "elsewhere"}, nil)
	root, home := filepath.Join(tmp, "ws"), filepath.Join(tmp, "home")
	if err := os.Symlink(home+"/.claude", filepath.Join(tmp, "elsewhere", "cl")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	p := testPolicy(t, "  default: allow\n  allow: [Edit(~/**), Write(~/**), Read(~/**), Bash(touch:*)]\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Home: home})
	for _, c := range []struct {
		name string
		req  Request
		want Value
	}{
		{"claude settings", Request{Action: ActionFSWrite, Paths: []string{home + "/.claude/settings.json"}}, Deny},
		{"claude skill", Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{home + "/.claude/skills/x/SKILL.md"}}, Deny},
		{"claude command", Request{Action: ActionFSWrite, Paths: []string{home + "/.claude/commands/x.md"}}, Deny},
		{"claude agent", Request{Action: ActionFSWrite, Paths: []string{home + "/.claude/agents/x.md"}}, Deny},
		{"claude user configuration", Request{Action: ActionFSWrite, Paths: []string{home + "/.claude.json"}}, Deny},
		{"claude older user configuration", Request{Action: ActionFSWrite, Paths: []string{home + "/.claude/.config.json"}}, Deny},
		{"claude plugin", Request{Action: ActionFSWrite, Paths: []string{home + "/.claude/plugins/x/hooks/hooks.json"}}, Deny},
		{"claude settings through a link", Request{Action: ActionFSWrite, Paths: []string{tmp + "/elsewhere/cl/settings.json"}}, Deny},
		{"gemini settings", Request{Action: ActionFSWrite, Paths: []string{home + "/.gemini/settings.json"}}, Deny},
		{"gemini env", Request{Action: ActionFSWrite, Paths: []string{home + "/.gemini/.env"}}, Deny},
		{"gemini skill", Request{Action: ActionFSWrite, Paths: []string{home + "/.gemini/skills/x/SKILL.md"}}, Deny},
		{"agents skill", Request{Action: ActionFSWrite, Paths: []string{home + "/.agents/skills/x/SKILL.md"}}, Deny},
		{"codex configuration", Request{Action: ActionFSWrite, Paths: []string{home + "/.codex/config.toml"}}, Deny},
		{"git configuration", Request{Action: ActionFSWrite, Paths: []string{home + "/.gitconfig"}}, Deny},
		{"git configuration directory", Request{Action: ActionFSWrite, Paths: []string{home + "/.config/git/config"}}, Deny},
		{"zed user settings", Request{Action: ActionFSWrite, Paths: []string{home + "/.config/zed/settings.json"}}, Deny},
		{"jetbrains acp agents", Request{Action: ActionFSWrite, Paths: []string{home + "/.jetbrains/acp.json"}}, Deny},
		{"jetbrains ide acp agents", Request{Action: ActionFSWrite, Paths: []string{home + "/.config/JetBrains/IntelliJIdea2025.3/options/acp.json"}}, Deny},
		{"acpx configuration", Request{Action: ActionFSWrite, Paths: []string{home + "/.acpx/config.json"}}, Deny},
		{"acpx older configuration", Request{Action: ActionTerminalCreate, Command: "touch " + home + "/.config/acpx/config.json"}, Deny},
		{"opencode plugin", Request{Action: ActionFSWrite, Paths: []string{home + "/.config/opencode/plugins/x.ts"}}, Deny},
		{"cursor permissions", Request{Action: ActionFSWrite, Paths: []string{home + "/.cursor/permissions.json"}}, Deny},
		{"copilot settings", Request{Action: ActionFSWrite, Paths: []string{home + "/.copilot/settings.json"}}, Deny},
		{"vs code extension", Request{Action: ActionFSWrite, Paths: []string{home + "/.vscode/extensions/evil/package.json"}}, Deny},
		{"goose configuration", Request{Action: ActionFSWrite, Paths: []string{home + "/.config/goose/config.yaml"}}, Deny},
		{"zed tasks", Request{Action: ActionFSWrite, Paths: []string{home + "/.config/zed/tasks.json"}}, Deny},
		{"command", Request{Action: ActionTerminalCreate, Command: "touch " + home + "/.agents/skills/x/SKILL.md"}, Deny},
		{"another file", Request{Action: ActionFSWrite, Paths: []string{home + "/notes.txt"}}, Allow},
		{"claude memory", Request{Action: ActionFSWrite, Paths: []string{home + "/.claude/CLAUDE.md"}}, Allow},
		{"reading claude settings", Request{Action: ActionFSRead, Paths: []string{home + "/.claude/settings.json"}}, Allow},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.req.Cwd = root
			d := e.Decide(c.req)
			if d.Value != c.want || c.want == Deny && d.Ref != "self-protection" {
				t.Errorf("%s = %v (%s: %s); want %v", c.name, d.Value, d.Ref, d.Reason, c.want)
			}
			if c.want == Deny && !strings.Contains(d.Reason, "protected from the agent") {
				t.Errorf("%s: reason %q does not say the file is protected", c.name, d.Reason)
			}
		})
	}
}

// TestRelocatedAgentConfigProtected: CLAUDE_CONFIG_DIR takes the place of
// ~/.claude for Claude Code (its settings, skills, plugins and .claude.json
// are read there), GEMINI_CLI_HOME of the home directory for Gemini CLI,
// CODEX_HOME of ~/.codex for Codex, OPENCODE_CONFIG_DIR and OPENCODE_CONFIG
// of OpenCode's directory and file, VIBE_HOME of ~/.vibe for Mistral Vibe, COPILOT_HOME of ~/.copilot,
// XDG_CONFIG_HOME of ~/.config for git, Zed and the others; the agent inherits them from the
// bridge. In a directory the policy
// lets the agent write (the workspace; outside it, one a rule allows), the
// configuration there is refused as in the home directory; other files
// there are not.
func TestRelocatedAgentConfigProtected(t *testing.T) {
	tmp := tempTree(t, []string{"ws/cc", "ws/cx", "ws/oc", "ws/vb", "ws/cp", "gh", "home"}, nil)
	root, gh := filepath.Join(tmp, "ws"), filepath.Join(tmp, "gh")
	t.Setenv("HOME", filepath.Join(tmp, "home"))
	t.Setenv("CLAUDE_CONFIG_DIR", root+"/cc")
	t.Setenv("GEMINI_CLI_HOME", gh)
	t.Setenv("CODEX_HOME", root+"/cx")
	t.Setenv("OPENCODE_CONFIG_DIR", root+"/oc")
	t.Setenv("OPENCODE_CONFIG", root+"/oc.json")
	t.Setenv("VIBE_HOME", root+"/vb")
	t.Setenv("COPILOT_HOME", root+"/cp")
	t.Setenv("XDG_CONFIG_HOME", root+"/xdg")
	t.Setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", root+"/gsys.json")
	p := testPolicy(t, "  default: allow\n  allow: [Edit(/"+gh+"/**), Write(/"+gh+"/**)]\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Home: filepath.Join(tmp, "home")})
	for _, c := range []struct {
		rel  string
		want Value
	}{
		{"cc/settings.json", Deny},
		{"cc/skills/x/SKILL.md", Deny},
		{"cc/commands/x.md", Deny},
		{"cc/agents/x.md", Deny},
		{"cc/plugins/x/hooks/hooks.json", Deny},
		{"cc/.claude.json", Deny},
		{"cc/.config.json", Deny},
		{"../gh/.gemini/settings.json", Deny},
		{"../gh/.agents/skills/x/SKILL.md", Deny},
		{"cx/config.toml", Deny},
		{"cx/rules/default.rules", Deny},
		{"oc/plugins/x.ts", Deny},
		{"oc.json", Deny},
		{"oc.jsonc", Allow},
		{"vb/config.toml", Deny},
		{"vb/tools/x.py", Deny},
		{"cp/settings.json", Deny},
		{"xdg/git/config", Deny},
		{"xdg/zed/settings.json", Deny},
		{"xdg/notes.md", Allow},
		{"gsys.json", Deny},
		{"cc/notes.md", Allow},
		{"../gh/notes.md", Allow},
	} {
		d := e.Decide(Request{Action: ActionFSWrite, Paths: []string{filepath.Join(root, c.rel)}, Cwd: root})
		if d.Value != c.want || c.want == Deny && d.Ref != "self-protection" {
			t.Errorf("writing %s = %v (%s: %s); want %v", c.rel, d.Value, d.Ref, d.Reason, c.want)
		}
	}
}
