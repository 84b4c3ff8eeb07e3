package adapter

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/tailscale/hujson"
)

// Gemini CLI runs the tools of an MCP server its settings mark
// "trust": true (in a trusted folder) without asking anyone: its policy
// engine's ask_user comes to nothing there, and only a deny stops a call.
// So a question the policy asks about such a tool (an ask rule, a path an
// ask rule names, default: ask) would not reach the person: the call would
// run, and the bridge would see it only after. For each trusted server the
// bridge finds in the settings Gemini reads at start, every rule that
// would ask about its tools is written for that server as a deny too,
// whose message says why and what to change.

// geminiTrustAny stands for every server: a settings file the bridge
// could not read may name any server trusted.
const geminiTrustAny = "*"

// geminiSettingsFiles returns the files Gemini CLI reads its settings and
// extensions' MCP servers from, for an agent with environment env started
// in dir: system defaults, system, user and workspace settings, and each
// installed extension's manifest.
func geminiSettingsFiles(env []string, dir string) []string {
	get := func(name string) string {
		for _, kv := range slices.Backward(env) {
			if v, ok := strings.CutPrefix(kv, name+"="); ok {
				return v
			}
		}
		return ""
	}
	system := get("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
	if system == "" {
		system = geminiSystemSettings(runtime.GOOS)
	}
	defaults := get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
	if defaults == "" {
		defaults = filepath.Join(filepath.Dir(system), "system-defaults.json")
	}
	files := []string{defaults, system}
	home := get("GEMINI_CLI_HOME")
	if home == "" {
		home = get("HOME")
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gemini", "settings.json"))
		ext, _ := filepath.Glob(filepath.Join(home, ".gemini", "extensions", "*", "gemini-extension.json"))
		files = append(files, ext...)
	}
	if dir != "" {
		files = append(files, filepath.Join(dir, ".gemini", "settings.json"))
	}
	return files
}

// geminiSystemSettings is where Gemini CLI reads its system settings on
// the platform goos without GEMINI_CLI_SYSTEM_SETTINGS_PATH.
func geminiSystemSettings(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/GeminiCli/settings.json"
	case "windows":
		return `C:\ProgramData\gemini-cli\settings.json`
	}
	return "/etc/gemini-cli/settings.json"
}

// geminiTrustedServers returns the names of the MCP servers files mark
// trusted, sorted. A file is read as Gemini reads it, JSON with comments
// (hujson standardizes them away, and trailing commas too), with names
// matched case-exactly; geminiTrustAny, and a note of why, for a file that
// exists but cannot be read so (a member named twice among them: which
// one Gemini takes is not the bridge's to guess).
func geminiTrustedServers(files []string) (servers, unread []string) {
	for _, f := range files {
		b, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var s struct {
			MCPServers map[string]struct {
				Trust any `json:"trust"`
			} `json:"mcpServers"`
		}
		if err == nil {
			if b, err = hujson.Standardize(b); err == nil {
				err = jsonv2.Unmarshal(b, &s)
			}
		}
		if err != nil {
			unread = append(unread, fmt.Sprintf("%s: %v", f, err))
			servers = append(servers, geminiTrustAny)
			continue
		}
		for name, srv := range s.MCPServers {
			if srv.Trust != nil && srv.Trust != false {
				servers = append(servers, name)
			}
		}
	}
	slices.Sort(servers)
	return slices.Compact(servers), unread
}

// trustedDenies returns, for each rule of rules that asks about the tools
// of a server in trusted (the policy's asks; not a rule that asks only so
// that the bridge decides, ForWire), the same rule for that server as
// a deny, one step above it, so that the policy's allows and denies keep
// their order around it.
func trustedDenies(rules []GeminiRule, trusted []string) []GeminiRule {
	var out []GeminiRule
	for _, r := range rules {
		if r.Decision != "ask_user" || r.ForWire {
			continue
		}
		for _, s := range trusted {
			d, ok := ruleForServer(r, s)
			if !ok {
				continue
			}
			d.Decision, d.Priority = "deny", r.Priority+1
			d.DenyMessage = fmt.Sprintf("acp-bridge policy asks the person about this call (%s), and Gemini CLI runs the tools of "+
				"the MCP server %s, trusted in its settings, without asking anyone; remove \"trust\": true from that server's settings to be asked",
				r.Source, serverShown(s))
			d.Source = r.Source + ", for a trusted MCP server"
			out = append(out, d)
		}
	}
	return out
}

// ruleForServer returns r narrowed to the tools of server s, and whether
// r may match one: a rule for every tool, for every MCP tool, for the
// server, or for one of its tools.
func ruleForServer(r GeminiRule, s string) (GeminiRule, bool) {
	switch {
	case r.MCPName == "" && (r.ToolName == "*" || r.ToolName == "mcp_*"):
		r.MCPName, r.ToolName = s, "*"
		return r, true
	case r.MCPName != "":
		return r, r.MCPName == s || s == geminiTrustAny || r.MCPName == geminiTrustAny
	case strings.HasPrefix(r.ToolName, "mcp_"):
		return r, s == geminiTrustAny || strings.HasPrefix(r.ToolName, "mcp_"+s+"_")
	}
	return r, false
}

// serverShown names server s in a message.
func serverShown(s string) string {
	if s == geminiTrustAny {
		return "named in a settings file the bridge could not read"
	}
	return fmt.Sprintf("%q", s)
}
