package governance

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/agnivade/levenshtein"
)

// knownTools are the tool names a rule may name: Claude Code's own tools
// (the syntax the compact rules borrow), Gemini CLI's and Codex's. MCP
// tools are named "mcp__<server>__<tool>" and are always accepted. A rule
// naming anything else would never match what the agents call their
// tools, so it is an error rather than a rule that silently does nothing.
var knownTools = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range []string{
		// Claude Code
		"Bash", "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead", "Glob", "Grep", "LS",
		"WebFetch", "WebSearch", "Task", "Agent", "TodoWrite", "BashOutput", "KillShell", "KillBash", "Skill",
		"SlashCommand", "ExitPlanMode", "ListMcpResourcesTool", "ReadMcpResourceTool",
		// Gemini CLI
		"run_shell_command", "read_file", "read_many_files", "write_file", "replace", "glob", "grep_search",
		"search_file_content", "list_directory", "web_fetch", "google_web_search", "save_memory", "write_todos",
		// Codex
		"shell", "exec_command", "apply_patch", "update_plan", "view_image",
	} {
		m[t] = true
	}
	return m
}()

// checkToolName reports why name, a tool name or name glob in a rule,
// cannot match any tool an agent calls; nil if it can.
func checkToolName(name string) error {
	if knownTools[name] || strings.HasPrefix(name, "mcp__") && len(name) > len("mcp__") {
		return nil
	}
	if strings.ContainsAny(name, "*?[") {
		for t := range knownTools {
			if ok, _ := path.Match(name, t); ok {
				return nil
			}
		}
		if ok, _ := path.Match(name, "mcp__x__y"); ok {
			return nil
		}
		return fmt.Errorf("%q matches no tool name an agent uses", name)
	}
	if s := nearestTool(name); s != "" {
		return fmt.Errorf("unknown tool %q (did you mean %s?)", name, s)
	}
	return fmt.Errorf("unknown tool %q (tools are Claude Code's Read, Edit, Bash, WebFetch, ..., Gemini CLI's or Codex's names, or mcp__server__tool)", name)
}

// nearestTool returns the known tool name closest to name, if one is
// within two edits (or differs only in case).
func nearestTool(name string) string {
	names := make([]string, 0, len(knownTools))
	for t := range knownTools {
		names = append(names, t)
	}
	sort.Strings(names)
	best, bestD := "", 3
	for _, t := range names {
		if strings.EqualFold(t, name) {
			return t
		}
		if d := levenshtein.ComputeDistance(strings.ToLower(t), strings.ToLower(name)); d < bestD {
			best, bestD = t, d
		}
	}
	return best
}

// checkRuleText refuses rule text that does not say what it looks like it
// says: whitespace at either end (a pattern "**/.env " matches only names
// ending in a space), control characters, and invisible or look-alike
// characters (zero-width spaces, bidirectional overrides, no-break spaces)
// that make two different rules print the same.
func checkRuleText(what, s string) error {
	if s != strings.TrimSpace(s) {
		return fmt.Errorf("%s %q has whitespace at its start or end, which would be part of what it matches; remove it", what, s)
	}
	for _, r := range s {
		switch {
		case r == ' ':
		case unicode.IsControl(r):
			return fmt.Errorf("%s %q contains the control character %U", what, s, r)
		case unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || r == unicode.ReplacementChar:
			return fmt.Errorf("%s %q contains the invisible or look-alike character %U; write it in plain text", what, s, r)
		}
	}
	return nil
}

// checkPathGlob refuses path patterns whose syntax means something other
// than it does in other tools: braces are not alternatives here, a
// leading "!" is not a negation, and a backslash escapes the next
// character rather than separating directories.
func checkPathGlob(p string) error {
	switch {
	case strings.ContainsAny(p, "{}"):
		return fmt.Errorf("pattern %q: braces are not alternatives in patterns; write one rule per pattern", p)
	case strings.HasPrefix(p, "!"):
		return fmt.Errorf("pattern %q: a leading \"!\" is not a negation; an allow rule says what is allowed", p)
	case strings.Contains(p, `\`):
		return fmt.Errorf("pattern %q: a backslash escapes the next character; directories are separated by /", p)
	}
	return nil
}

// checkDomain refuses a WebFetch domain that no host can equal: a URL, a
// path, a port, or anything but letters, digits, dots and hyphens, with
// an optional leading "*.".
func checkDomain(d string) error {
	host := strings.TrimPrefix(d, "*.")
	if host == "" || strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") || strings.Contains(host, "..") {
		return fmt.Errorf("domain %q is not a host name", d)
	}
	for _, r := range host {
		if !(r == '.' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 0x7f && unicode.IsLetter(r)) {
			return fmt.Errorf("domain %q: %q cannot be part of a host name (write the host alone, like domain:example.com)", d, r)
		}
	}
	return nil
}

// knownActions are the actions the bridge decides.
var knownActions = []string{ActionToolCall, ActionFSRead, ActionFSWrite, ActionTerminalCreate, ActionSessionNew}

// checkAction refuses an action class that matches none of the actions the
// bridge decides: a policy for it would never fire.
func checkAction(a string) error {
	for _, k := range knownActions {
		if matchAction(a, k) {
			return nil
		}
	}
	return fmt.Errorf("action %q matches none of the actions the bridge decides (%s), so the policy would never apply", a, strings.Join(knownActions, ", "))
}
