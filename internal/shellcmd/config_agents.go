package shellcmd

import "slices"

// The coding agents' and editors' own commands that change what they run
// or may do without asking: "claude mcp add x -- sh" adds a server to
// ~/.claude.json (to .mcp.json with --scope project), "gemini mcp add"
// to .gemini/settings.json, "gemini extensions install" puts an
// extension (hooks, MCP servers, commands) in ~/.gemini/extensions,
// "codex mcp add" writes ~/.codex/config.toml, "acpx config init" writes
// ~/.acpx/config.json with approve-all, and "code --install-extension"
// installs code the editor runs. Each writes protected configuration
// that no word of the line names; config_writes.go has how they are read.

// agentReading is what one agent's settings-changing subcommands write.
type agentReading struct {
	// subs maps a subcommand to the verbs under it that only read
	// (list, get); any other verb writes.
	subs map[string][]string
	// scoped are the files by --scope/-s value; "" is the default
	// scope's.
	scoped map[string][]string
	// other are the files of every subcommand but those scoped covers.
	other map[string][]string
}

// agentReadings are the agents whose subcommands write their settings,
// by program name.
var agentReadings = map[string]agentReading{
	"claude": {
		subs: map[string][]string{"mcp": {"list", "get", "serve"}, "config": {"get", "list", "ls"},
			"plugin": {"list", "validate"}, "plugins": {"list", "validate"}},
		scoped: map[string][]string{"": {"~/.claude.json"}, "local": {"~/.claude.json"}, "user": {"~/.claude.json"},
			"project": {".mcp.json"}},
		other: map[string][]string{"config": {"~/.claude.json", "~/.claude/settings.json"},
			"plugin":  {"~/.claude/plugins/installed_plugins.json", "~/.claude/settings.json", ".claude/settings.json"},
			"plugins": {"~/.claude/plugins/installed_plugins.json", "~/.claude/settings.json", ".claude/settings.json"}},
	},
	"gemini": geminiLike(".gemini"),
	"qwen":   geminiLike(".qwen"),
	"iflow":  geminiLike(".iflow"),
	"codex": {
		subs:   map[string][]string{"mcp": {"list", "get"}, "features": {"list"}},
		scoped: map[string][]string{"": {"~/.codex/config.toml"}},
		other:  map[string][]string{"features": {"~/.codex/config.toml"}},
	},
	"copilot": {subs: map[string][]string{"mcp": {"list", "get"}}, scoped: map[string][]string{"": {"~/.copilot/mcp-config.json"}}},
	"vibe":    {subs: map[string][]string{"mcp": {"list", "get"}}, scoped: map[string][]string{"": {"~/.vibe/config.toml", ".vibe/config.toml"}}},
	"amp": {subs: map[string][]string{"mcp": {"list", "doctor"}, "permissions": {"list", "test"}},
		scoped: map[string][]string{"": {"~/.config/amp/settings.json", ".amp/settings.json"}},
		other:  map[string][]string{"permissions": {"~/.config/amp/settings.json", ".amp/settings.json"}}},
	"opencode": {subs: map[string][]string{"mcp": {"list", "ls"}, "agent": {"list"}},
		scoped: map[string][]string{"": {"~/.config/opencode/opencode.json", "opencode.json"}},
		other:  map[string][]string{"agent": {"~/.config/opencode/agent/", ".opencode/agent/"}}},
	"acpx": {subs: map[string][]string{"config": {"show"}}, other: map[string][]string{"config": {"~/.acpx/config.json"}}},
}

// geminiLike is Gemini CLI's reading for a CLI of its family kept in dir:
// "mcp add|remove" writes the project's settings (the default scope) or
// the user's (--scope user), "extensions install|link|..." the user's
// extensions.
func geminiLike(dir string) agentReading {
	return agentReading{
		subs:   map[string][]string{"mcp": {"list"}, "extensions": {"list", "validate"}, "extension": {"list", "validate"}},
		scoped: map[string][]string{"": {dir + "/settings.json"}, "project": {dir + "/settings.json"}, "user": {"~/" + dir + "/settings.json"}},
		other:  map[string][]string{"extensions": {"~/" + dir + "/extensions/"}, "extension": {"~/" + dir + "/extensions/"}},
	}
}

// agentConfig reads an agent's settings-changing subcommand.
func agentConfig(name string, args []Word) (ConfigChange, bool) {
	r := agentReadings[name]
	sub, rest, ok := subcommand(args)
	if !ok {
		return ConfigChange{}, false
	}
	readers, known := r.subs[sub]
	if sub != "" && !known {
		return ConfigChange{}, false
	}
	a := splitConfigArgs(rest, "-s", "--scope", "-e", "--env", "-t", "--transport", "-H", "--header")
	verb, _ := a.operand(0)
	if sub != "" && !a.computed && (verb == "" || slices.Contains(readers, verb)) {
		return ConfigChange{}, false
	}
	var paths []string
	switch files, ok := r.other[sub]; {
	case ok && sub != "":
		paths = files
	case a.computed || sub == "":
		for _, fs := range r.scoped {
			paths = append(paths, fs...)
		}
		for _, fs := range r.other {
			paths = append(paths, fs...)
		}
	default:
		scopes := a.values("-s", "--scope")
		if len(scopes) == 0 {
			scopes = []string{""}
		}
		for _, s := range scopes {
			fs, ok := r.scoped[s]
			if !ok { // an unknown or computed scope may be any
				for _, all := range r.scoped {
					fs = append(fs, all...)
				}
			}
			paths = append(paths, fs...)
		}
	}
	return changeWith(name+" "+sub, dedupeFiles(homeFiles(paths...)), nil, nil)
}

// editorExtensionDirs are where each editor's command line installs
// extensions, code the editor runs outside the bridge.
var editorExtensionDirs = map[string]string{
	"code": "~/.vscode/extensions/", "code-insiders": "~/.vscode-insiders/extensions/",
	"codium": "~/.vscode-oss/extensions/", "cursor": "~/.cursor/extensions/", "windsurf": "~/.windsurf/extensions/",
}

// editorExtensions reads "code --install-extension X" and
// "--uninstall-extension X": they write the editor's extensions
// directory, or the one --extensions-dir names.
func editorExtensions(name string, args []Word) (ConfigChange, bool) {
	a := splitConfigArgs(args, "--install-extension", "--uninstall-extension", "--extensions-dir", "--user-data-dir",
		"--profile", "--locale")
	if !a.has("--install-extension", "--uninstall-extension") {
		return ConfigChange{}, false
	}
	dirs := a.values("--extensions-dir")
	files := homeFiles(editorExtensionDirs[name])
	if len(dirs) > 0 {
		files = nil
		for _, d := range dirs {
			files = append(files, ConfigFile{Path: d, Computed: d == ""})
		}
	}
	return changeWith(name+" --install-extension", files, nil, nil)
}
