package governance

// agentHomeEnv are the variables with which an agent finds its user
// configuration elsewhere than in the home directory, as CLAUDE_CONFIG_DIR
// moves Claude Code's (claudeConfigDir): Codex reads config.toml (its MCP
// servers, sandbox and approval settings), rules and hooks from
// CODEX_HOME, OpenCode reads agents, commands and plugins (code it loads)
// from OPENCODE_CONFIG_DIR and its configuration from the OPENCODE_CONFIG
// file, Mistral Vibe its config.toml, tools and agents from VIBE_HOME,
// Copilot CLI its settings, trusted folders and MCP servers from
// COPILOT_HOME, Gemini CLI its system settings and defaults from the files
// GEMINI_CLI_SYSTEM_SETTINGS_PATH and GEMINI_CLI_SYSTEM_DEFAULTS_PATH name. The agent inherits them from the bridge, so the place each names
// is protected as ~/.codex is, wherever it is, the workspace included.
var agentHomeEnv = []struct {
	name, what string
	dir        bool
}{
	{"CODEX_HOME", "Codex's home directory (CODEX_HOME): its configuration, rules and hooks decide what Codex runs and what it may do without asking", true},
	{"OPENCODE_CONFIG_DIR", "OpenCode's configuration directory (OPENCODE_CONFIG_DIR): its plugins, agents and commands are code and commands OpenCode runs", true},
	{"VIBE_HOME", "Mistral Vibe's home directory (VIBE_HOME): its config.toml, tools and agents decide what Vibe runs and what it may do without asking", true},
	{"COPILOT_HOME", "GitHub Copilot CLI's home directory (COPILOT_HOME): its settings, trusted folders and MCP servers decide what Copilot runs", true},
	{"GEMINI_CLI_SYSTEM_SETTINGS_PATH", "Gemini CLI's system settings (GEMINI_CLI_SYSTEM_SETTINGS_PATH), which override every other settings file", false},
	{"GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "Gemini CLI's system defaults (GEMINI_CLI_SYSTEM_DEFAULTS_PATH), its settings' lowest layer", false},
	{"OPENCODE_CONFIG", "OpenCode's configuration file (OPENCODE_CONFIG), whose MCP servers are commands OpenCode starts and whose permissions it obeys", false},
}

// agentHomeEnvProtected returns the places agentHomeEnv's variables name
// in the bridge's environment, each in the forms links in it lead to.
func agentHomeEnvProtected() []protected {
	var out []protected
	for _, v := range agentHomeEnv {
		forms := appendDirForms(nil, envDir(v.name), nil)
		if len(forms) == 0 {
			continue
		}
		out = append(out, protected{ProtectedPath: ProtectedPath{Path: forms[0], What: v.what}, dir: v.dir, forms: forms, lower: lowerAll(forms)})
	}
	return out
}
