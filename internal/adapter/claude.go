package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/governance"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// HookSocketEnv names the environment variable that carries the bridge's hook
// socket path to the agent, and from it to the hooks the agent runs.
const HookSocketEnv = "ACP_BRIDGE_HOOK_SOCKET"

// HookTimeoutSeconds is the timeout Claude Code gives the hook command. The
// hook client gives up, and denies, before it (see the hook subcommand).
const HookTimeoutSeconds = 60

// Where claude-agent-acp takes Claude settings in session/new params. The SDK
// lets options.settings override extraArgs.settings, so whichever the IDE set
// is the one merged into; with neither, the bridge sets extraArgs.settings.
var (
	claudeOptionsSettings = []string{"params", "_meta", "claudeCode", "options", "settings"}
	claudeExtraSettings   = []string{"params", "_meta", "claudeCode", "options", "extraArgs", "settings"}
)

// ClaudeSettings is the part of Claude Code's settings the adapter writes.
type ClaudeSettings struct {
	Permissions *ClaudePermissions           `json:"permissions,omitempty"`
	Hooks       map[string][]ClaudeHookGroup `json:"hooks,omitempty"`
}

// ClaudePermissions are Claude Code permission rules.
type ClaudePermissions struct {
	Deny  []string `json:"deny,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Allow []string `json:"allow,omitempty"`
}

// ClaudeHookGroup is one matcher and its hooks in Claude Code settings.
type ClaudeHookGroup struct {
	Matcher string       `json:"matcher"`
	Hooks   []ClaudeHook `json:"hooks"`
}

// ClaudeHook is one command hook.
type ClaudeHook struct {
	// Type is "command".
	Type string `json:"type"`
	// Command is run by a shell with the hook payload on stdin.
	Command string `json:"command"`
	// Timeout is in seconds.
	Timeout int `json:"timeout,omitempty"`
}

// BuildClaudeSettings returns the settings that carry rules into Claude Code
// as permission rules, and, when hookCommand is not empty, a PreToolUse
// command hook for every tool. Rules Claude Code has no tool for are left
// out (the hook still reports those calls) and returned as skipped.
func BuildClaudeSettings(rules Rules, hookCommand string) (s ClaudeSettings, skipped []string) {
	var p ClaudePermissions
	add := func(list []string, to *[]string) {
		for _, text := range list {
			r, err := ParseRule(text)
			if err != nil {
				skipped = append(skipped, text)
				continue
			}
			cr, ok := claudeRule(r)
			if !ok {
				skipped = append(skipped, text)
				continue
			}
			*to = append(*to, cr)
		}
	}
	add(rules.Deny, &p.Deny)
	add(rules.Ask, &p.Ask)
	add(rules.Allow, &p.Allow)
	if len(p.Deny)+len(p.Ask)+len(p.Allow) > 0 {
		s.Permissions = &p
	}
	if hookCommand != "" {
		s.Hooks = map[string][]ClaudeHookGroup{"PreToolUse": {{
			Matcher: "*",
			Hooks:   []ClaudeHook{{Type: "command", Command: hookCommand, Timeout: HookTimeoutSeconds}},
		}}}
	}
	return s, skipped
}

// HookCommand returns the shell command Claude Code runs for the hook:
// "<executable> hook --socket <socket>", both quoted for sh.
func HookCommand(executable, socket string) string {
	return shellQuote(executable) + " hook --socket " + shellQuote(socket)
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// MergeClaudeSettings adds ours to existing, a JSON object of Claude
// settings, and returns the result. Permission rules and hooks are appended
// to the lists already there (a rule already present is not repeated);
// every other byte of existing is kept.
func MergeClaudeSettings(existing []byte, ours ClaudeSettings) ([]byte, error) {
	doc := bytes.TrimSpace(existing)
	if len(doc) == 0 || doc[0] != '{' || !json.Valid(doc) {
		return nil, errors.New("settings are not a JSON object")
	}
	var err error
	if p := ours.Permissions; p != nil {
		for _, l := range []struct {
			key   string
			rules []string
		}{{"deny", p.Deny}, {"ask", p.Ask}, {"allow", p.Allow}} {
			if len(l.rules) == 0 {
				continue
			}
			vals := make([][]byte, 0, len(l.rules))
			for _, r := range l.rules {
				b, _ := json.Marshal(r)
				vals = append(vals, b)
			}
			if doc, err = appendToArray(doc, vals, true, "permissions", l.key); err != nil {
				return nil, err
			}
		}
	}
	for _, event := range slices.Sorted(maps.Keys(ours.Hooks)) {
		vals := make([][]byte, 0, len(ours.Hooks[event]))
		for _, g := range ours.Hooks[event] {
			b, err := json.Marshal(g)
			if err != nil {
				return nil, err
			}
			vals = append(vals, b)
		}
		if doc, err = appendToArray(doc, vals, false, "hooks", event); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// appendToArray appends vals to the array at path in doc, creating it if
// missing. With dedupe, a value equal (as JSON) to one already there is not
// added again.
func appendToArray(doc []byte, vals [][]byte, dedupe bool, path ...string) ([]byte, error) {
	// A null parent ("hooks": null) is read as an empty object.
	for i := 1; i < len(path); i++ {
		if v, ok := rawjson.Get(doc, path[:i]...); ok && bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			var err error
			if doc, err = rawjson.Set(doc, []byte("{}"), path[:i]...); err != nil {
				return nil, err
			}
		}
	}
	cur, ok := rawjson.Get(doc, path...)
	if !ok || bytes.Equal(bytes.TrimSpace(cur), []byte("null")) {
		return rawjson.Set(doc, joinArray(nil, vals), path...)
	}
	elems, err := rawjson.Elements(cur)
	if err != nil {
		return nil, fmt.Errorf("settings %s: not an array", strings.Join(path, "."))
	}
	have := map[string]bool{}
	if dedupe {
		for _, e := range elems {
			have[canonical(e)] = true
		}
	}
	var add [][]byte
	for _, v := range vals {
		if dedupe && have[canonical(v)] {
			continue
		}
		add = append(add, v)
	}
	if len(add) == 0 {
		return doc, nil
	}
	return rawjson.Set(doc, joinArray(elems, add), path...)
}

func joinArray(elems, more [][]byte) []byte {
	all := append(append([][]byte{}, elems...), more...)
	return append(append([]byte{'['}, bytes.Join(all, []byte{','})...), ']')
}

func canonical(v []byte) string {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return string(v)
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// claude is the Claude Code adapter (claude-agent-acp).
type claude struct {
	settings ClaudeSettings
	hook     *HookServer // nil when there is no decider
	logger   *slog.Logger
	protect  func(...governance.ProtectedPath)

	mu        sync.Mutex      // guards protected
	protected map[string]bool // the IDE's settings files already protected
}

func newClaude(cfg Config) (*claude, error) {
	c := &claude{logger: cfg.logger(), protect: cfg.protect}
	hookCmd := ""
	if cfg.Decider != nil {
		if cfg.Executable == "" || !filepath.IsAbs(cfg.Executable) {
			return nil, fmt.Errorf("claude adapter: the hook needs the bridge's absolute path, got %q", cfg.Executable)
		}
		h, err := ListenHook(cfg.Decider, c.logger)
		if err != nil {
			return nil, fmt.Errorf("claude adapter: %w", err)
		}
		c.hook = h
		hookCmd = HookCommand(cfg.Executable, h.SocketPath())
		// The hook runs the bridge's program: an agent that replaced it
		// would answer its own hook.
		cfg.protect(governance.ProtectedPath{Path: filepath.Dir(h.SocketPath()), What: "the bridge's hook socket", Read: true},
			governance.ProtectedPath{Path: cfg.Executable, What: "the bridge's program, which the hook runs"})
		cfg.Rules = cfg.Rules.withProtected(filepath.Dir(h.SocketPath()), true).withProtected(cfg.Executable, false)
	}
	var skipped []string
	c.settings, skipped = BuildClaudeSettings(cfg.Rules, hookCmd)
	for _, s := range skipped {
		c.logger.Info("adapter: rule has no Claude Code equivalent; enforced by the hook and the wire only", "rule", s)
	}
	return c, nil
}

func (c *claude) Name() string { return Claude }

// Spawn puts the hook socket in the agent's environment, which Claude Code
// passes on to its hooks.
func (c *claude) Spawn(cmd *acpwire.AgentCommand) error {
	if c.hook == nil {
		return nil
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env[:len(env):len(env)], HookSocketEnv+"="+c.hook.SocketPath())
	return nil
}

// PatchSession merges the adapter's settings into the Claude settings of a
// session request (see claudeOptionsSettings).
func (c *claude) PatchSession(m *acpwire.Message) (*acpwire.Message, error) {
	if c.settings.Permissions == nil && c.settings.Hooks == nil {
		return m, nil
	}
	cwd, _ := m.GetString("params", "cwd")
	for _, path := range [][]string{claudeOptionsSettings, claudeExtraSettings} {
		v, ok := m.Get(path...)
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			continue
		}
		merged, err := c.mergeValue(v, cwd)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", strings.Join(path[1:], "."), err)
		}
		return m.Patch(merged, path...)
	}
	ours, err := json.Marshal(c.settings)
	if err != nil {
		return nil, err
	}
	str, _ := json.Marshal(string(ours))
	return m.Patch(str, claudeExtraSettings...)
}

// mergeValue merges into a settings value as the IDE gave it: an object, a
// JSON string, or the path of a settings file (read and inlined).
func (c *claude) mergeValue(v []byte, cwd string) ([]byte, error) {
	v = bytes.TrimSpace(v)
	if len(v) > 0 && v[0] == '{' {
		return MergeClaudeSettings(v, c.settings)
	}
	s, ok := rawjson.String(v)
	if !ok {
		return nil, errors.New("settings must be an object, a JSON string or a file path")
	}
	text := strings.TrimSpace(s)
	if !strings.HasPrefix(text, "{") {
		p := text
		if !filepath.IsAbs(p) && cwd != "" {
			p = filepath.Join(cwd, p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("reading the IDE's settings file: %v", err)
		}
		text = string(b)
		// Read again for every session: one the agent rewrote would
		// give its next session disableAllHooks, bypassPermissions or
		// hooks of its own, over the bridge's.
		c.protectSettingsFile(p)
	}
	merged, err := MergeClaudeSettings([]byte(text), c.settings)
	if err != nil {
		return nil, err
	}
	return json.Marshal(string(merged))
}

// protectSettingsFile protects the IDE's settings file at p, once.
func (c *claude) protectSettingsFile(p string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.protect == nil || c.protected[p] {
		return
	}
	if c.protected == nil {
		c.protected = map[string]bool{}
	}
	c.protected[p] = true
	c.protect(governance.ProtectedPath{Path: p, What: "the Claude settings file the IDE gives the agent, into which the bridge merges its hook"})
}

func (c *claude) Close() error {
	if c.hook != nil {
		return c.hook.Close()
	}
	return nil
}
