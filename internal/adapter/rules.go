package adapter

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Rules is a policy's rule list in Claude Code permission-rule syntax
// ("Bash(npm run test:*)", "Read(./src/**)", "WebFetch(domain:example.com)").
// Ask means require approval. Precedence, as in Claude Code and the
// governance policy: deny, then ask, then allow.
type Rules struct {
	Deny, Ask, Allow []string
	// Default is the policy's decision for what no rule names ("deny",
	// "require-approval", "escalate", "allow"); empty when unknown.
	Default string
}

// Empty reports whether r has no rules.
func (r Rules) Empty() bool { return len(r.Deny)+len(r.Ask)+len(r.Allow) == 0 }

// Rule is one parsed permission rule: a tool name and an optional specifier
// in parentheses.
type Rule struct {
	// Tool is the tool name, e.g. "Bash" or "mcp__github__create_issue".
	Tool string
	// Specifier is the text inside the parentheses; empty when the rule has
	// none or it is "*" (the whole tool).
	Specifier string
}

// String returns the rule in its canonical syntax.
func (r Rule) String() string {
	if r.Specifier == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Specifier + ")"
}

// ParseRule parses "Tool" or "Tool(specifier)". The specifier runs from the
// first "(" to the final ")", so it may itself contain parentheses.
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Rule{}, fmt.Errorf("empty rule")
	}
	if !utf8.ValidString(s) {
		return Rule{}, fmt.Errorf("rule %q: not valid UTF-8", s)
	}
	tool, spec := s, ""
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return Rule{}, fmt.Errorf("rule %q: missing closing parenthesis", s)
		}
		tool, spec = s[:i], s[i+1:len(s)-1]
	} else if strings.ContainsAny(s, ")") {
		return Rule{}, fmt.Errorf("rule %q: unbalanced parenthesis", s)
	}
	if !validToolName(tool) {
		return Rule{}, fmt.Errorf("rule %q: tool name %q must be letters, digits and underscores", s, tool)
	}
	spec = strings.TrimSpace(spec)
	if spec == "*" {
		spec = ""
	}
	return Rule{Tool: tool, Specifier: spec}, nil
}

func validToolName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		case c == '-' && i > 0:
		default:
			return false
		}
	}
	return true
}

// pathTools are the Claude Code tools whose specifier is a path pattern.
var pathTools = map[string]bool{"Read": true, "Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true, "Glob": true, "Grep": true}

// claudeTools are the tool names Claude Code's permission rules know. Rules
// for other names are not put in Claude's settings (the hook still sees
// every call and asks the bridge).
var claudeTools = map[string]bool{
	"Bash": true, "Read": true, "Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true,
	"Glob": true, "Grep": true, "WebFetch": true, "WebSearch": true, "Task": true, "Agent": true,
	"TodoWrite": true, "NotebookRead": true, "BashOutput": true, "KillShell": true, "Skill": true,
	"SlashCommand": true, "ExitPlanMode": true,
}

// claudeRule returns the rule as Claude Code should read it, or false when
// Claude has no such tool. An absolute path ("/etc/**") becomes Claude's
// absolute form ("//etc/**"): in Claude Code a single leading slash is
// relative to the project.
func claudeRule(r Rule) (string, bool) {
	if !claudeTools[r.Tool] && !strings.HasPrefix(r.Tool, "mcp__") {
		return "", false
	}
	if pathTools[r.Tool] && strings.HasPrefix(r.Specifier, "/") && !strings.HasPrefix(r.Specifier, "//") {
		r.Specifier = "/" + r.Specifier
	}
	return r.String(), true
}

// withProtected returns r with deny rules for path, a file or directory
// the bridge depends on (the hook socket's directory, the program the hook
// runs), in the absolute form both Claude Code and the Gemini translation
// read: the agent's own tools may not change it, nor read it when read is
// set.
func (r Rules) withProtected(path string, read bool) Rules {
	glob := "/" + filepath.Clean(path)
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		glob += "/**"
	}
	tools := []string{"Edit", "Write"}
	if read {
		tools = append(tools, "Read")
	}
	out := Rules{Deny: append([]string(nil), r.Deny...), Ask: r.Ask, Allow: r.Allow, Default: r.Default}
	for _, t := range tools {
		out.Deny = append(out.Deny, t+"("+glob+")")
	}
	return out
}
