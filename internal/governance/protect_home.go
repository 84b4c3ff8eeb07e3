package governance

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// homeConfig are the files in the user's home directory, besides the
// agent configuration a workspace may also hold (agentConfig, protected in
// the home directory too: homeBases), from which the agents and the
// person's git take commands they run: Claude Code's user configuration
// (~/.claude.json, or ~/.claude/.config.json where it exists) and
// installed plugins, git's global configuration (the IDE's git
// runs its core.fsmonitor and hooks in the workspace), and the ACP clients'
// lists of agent commands, where the person's "acp-bridge ... -- agent"
// line is kept: Zed's user configuration (~/.config/zed, the settings'
// agent_servers, tasks), the JetBrains IDEs' ~/.jetbrains/acp.json
// (agent_servers) and acpx's ~/.acpx/config.json
// (~/.config/acpx/config.json in older releases; agents, defaultPermissions,
// mcpServers). An agent that wrote one would have it obeyed outside the
// bridge, in this session or the next: the IDE would start the agent
// without the bridge.
var homeConfig = []configLocation{
	{".claude.json", "Claude Code's user configuration, whose MCP servers, for every project, are commands Claude starts", false, false},
	{".claude/.config.json", "Claude Code's user configuration, read in place of ~/.claude.json where it exists", false, false},
	{".claude/plugins", "Claude Code's installed plugins, whose hooks, commands and MCP servers Claude runs", true, false},
	{".gitconfig", "git's global configuration, whose core.fsmonitor, core.hooksPath and aliases run commands in every repository", false, false},
	{".config/git", "git's global configuration, whose core.fsmonitor, core.hooksPath and aliases run commands in every repository", true, false},
	{".config/zed", "Zed's user configuration: its settings' agent_servers are the agent commands Zed starts, its tasks commands Zed runs", true, false},
	{".config/JetBrains", "the JetBrains IDEs' configuration: each IDE's options/acp.json names the agent commands it starts", true, false},
	{".local/share/JetBrains", "the JetBrains IDEs' installed plugins, code the IDE runs", true, false},
	{".jetbrains", "the JetBrains IDEs' user directory: its acp.json names the agent commands the IDE starts", true, false},
	{".acpx", "acpx's user directory: its config.json names the agent commands acpx starts, its permission mode and MCP servers", true, false},
	{".config/acpx", "acpx's user configuration in older releases: the agent commands acpx starts, its permission mode", true, false},
	{".config/opencode", "OpenCode's user configuration: its plugins, agents and commands are code and commands OpenCode runs, its MCP servers commands it starts", true, false},
	{".config/amp", "Amp's user settings, which decide what Amp runs without asking and name MCP servers, commands Amp starts", true, false},
	{".vscode/extensions", "VS Code's installed extensions, code the editor runs", true, false},
	{".vscode-insiders/extensions", "VS Code Insiders' installed extensions, code the editor runs", true, false},
	{".vscode-oss/extensions", "VSCodium's installed extensions, code the editor runs", true, false},
	{".cursor/extensions", "Cursor's installed extensions, code the editor runs", true, false},
	{".config/goose", "Goose's user configuration, whose extensions are commands Goose starts and whose mode decides what it runs without asking", true, false},
}

// claudeConfigDir are the files Claude Code reads in the directory
// CLAUDE_CONFIG_DIR names, which takes the place of ~/.claude (and holds
// the .claude.json otherwise in the home directory, or the older
// .config.json Claude reads instead where it exists).
var claudeConfigDir = []configLocation{
	{"settings.json", "Claude Code's user settings (CLAUDE_CONFIG_DIR), whose hooks run commands", false, false},
	{"settings.local.json", "Claude Code's user settings (CLAUDE_CONFIG_DIR), whose hooks run commands", false, false},
	{"skills", "Claude Code's user skills (CLAUDE_CONFIG_DIR), whose inline shell commands Claude runs without its hooks", true, false},
	{"commands", "Claude Code's user slash commands (CLAUDE_CONFIG_DIR), whose inline shell commands Claude runs without its hooks", true, false},
	{"agents", "Claude Code's user subagents (CLAUDE_CONFIG_DIR), whose hooks are commands Claude runs", true, false},
	{"hooks", "Claude Code's user hook scripts (CLAUDE_CONFIG_DIR)", true, false},
	{"plugins", "Claude Code's installed plugins (CLAUDE_CONFIG_DIR), whose hooks, commands and MCP servers Claude runs", true, false},
	{".claude.json", "Claude Code's user configuration (CLAUDE_CONFIG_DIR), whose MCP servers are commands Claude starts", false, false},
	{".config.json", "Claude Code's user configuration (CLAUDE_CONFIG_DIR), read in place of .claude.json where it exists", false, false},
}

// envDir returns the directory the bridge's environment variable name
// gives, which the agent inherits, made absolute against the bridge's
// working directory as the agent started there makes it; "" for none.
func envDir(name string) string {
	v := os.Getenv(name)
	if v == "" {
		return ""
	}
	a, err := filepath.Abs(v)
	if err != nil {
		return ""
	}
	return a
}

// homeBases returns the home directories the agents read their user
// configuration in, each as written and, when a link leads there, where it
// leads: the engine's home and Gemini CLI's GEMINI_CLI_HOME. Claude Code,
// Gemini CLI, Codex and the other agents read their user configuration
// (~/.claude/settings.json, ~/.claude/skills, ~/.gemini, ~/.agents/skills,
// ~/.codex) there as they read a workspace's, so the agent configuration
// protected beneath every workspace root is protected beneath them too.
// A directory that is "/" or one of roots is left out.
func (e *Engine) homeBases(roots []string) []string {
	var out []string
	for _, h := range []string{e.home, envDir("GEMINI_CLI_HOME")} {
		out = appendDirForms(out, h, roots)
	}
	return out
}

// appendDirForms appends the absolute directory d and where links in it
// lead to out, but "/", a root and a form already there.
func appendDirForms(out []string, d string, roots []string) []string {
	if d == "" || !filepath.IsAbs(d) {
		return out
	}
	d = filepath.Clean(d)
	for _, f := range []string{d, resolveDir(d)} {
		if f != "/" && !strings.Contains(f, "\x00") && !slices.Contains(roots, f) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// homeProtected returns the homeConfig locations in the home directories
// (each of bases), the claudeConfigDir ones in the directory
// CLAUDE_CONFIG_DIR names, the places agentHomeEnv's variables name, and
// the ~/.config ones in the directory XDG_CONFIG_HOME names, which git,
// Zed and the others read in its place.
// They are protected where they are, not at any
// depth as agent configuration is: a dotfiles repository's .gitconfig is
// not git's.
func homeProtected(bases []string) []protected {
	var out []protected
	add := func(list []configLocation, in []string) {
		if len(in) == 0 {
			return
		}
		for _, c := range list {
			pr := protected{ProtectedPath: ProtectedPath{Path: in[0] + "/" + c.rel, What: c.what}, dir: c.dir}
			for _, b := range in {
				pr.forms = append(pr.forms, b+"/"+c.rel)
			}
			pr.lower = lowerAll(pr.forms)
			out = append(out, pr)
		}
	}
	add(homeConfig, bases)
	add(xdgConfig(), appendDirForms(nil, envDir("XDG_CONFIG_HOME"), nil))
	add(claudeConfigDir, appendDirForms(nil, envDir("CLAUDE_CONFIG_DIR"), nil))
	return append(out, agentHomeEnvProtected()...)
}

// xdgConfig returns the homeConfig locations beneath ~/.config, by their
// path below it: where XDG_CONFIG_HOME is set, git reads its global
// configuration from $XDG_CONFIG_HOME/git and Zed, acpx, OpenCode and
// Goose theirs from beside it.
func xdgConfig() []configLocation {
	var out []configLocation
	for _, c := range homeConfig {
		if rel, ok := strings.CutPrefix(c.rel, ".config/"); ok {
			c.rel = rel
			out = append(out, c)
		}
	}
	return out
}
