package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// Gemini policy priorities inside the admin tier (Gemini adds 5 + p/1000, so
// admin rules outrank the user's and the workspace's): deny over ask over
// allow, as in the bridge's policy.
const (
	geminiDenyPriority  = 900
	geminiAskPriority   = 500
	geminiAllowPriority = 100
)

// geminiAllowDecision is the Gemini decision written for the policy's allow
// rules: ask_user, never allow. A call Gemini CLI allows by its own rule
// runs without a permission request, decided by a pattern over the tool's
// arguments alone, while the bridge's decision on the same call weighs what
// no such pattern can: the paths a command names (deny rules for Read,
// Edit and Write, protected files, the workspace roots), what an
// interpreter runs, every URL in a web_fetch prompt. So Gemini asks, and
// the wire-level enforcement answers the request with the whole policy:
// an allowed call is approved by the bridge without asking the person, any
// other is refused or asked about as the policy says.
const geminiAllowDecision = "ask_user"

// GeminiRule is one [[rule]] of a Gemini CLI policy file.
type GeminiRule struct {
	// ToolName is Gemini's tool name ("run_shell_command", "read_file"),
	// or an MCP server's own name for its tool when MCPName is set.
	ToolName string
	// MCPName is the MCP server (as Gemini's settings name it, "*" for
	// every one) whose tool ToolName names; "" for Gemini's own tools.
	MCPName string
	// CommandPrefix, CommandRegex and ArgsPattern narrow the rule; at most
	// one is set (Gemini rejects the first two with the third).
	CommandPrefix, CommandRegex, ArgsPattern string
	// Decision is allow, deny or ask_user.
	Decision string
	// Priority orders rules within the admin tier (0-999).
	Priority int
	// DenyMessage is Gemini's message for a denial.
	DenyMessage string
	// Source is the bridge rule it was translated from, written as a
	// comment.
	Source string
	// Modes lists, comma-separated, the Gemini approval modes the rule
	// applies in ("default,autoEdit"); empty means every mode.
	Modes string
	// ForWire says the rule asks (ask_user) only so that the question
	// reaches the wire, where the bridge decides: the policy allows it
	// (an allow rule, default allow). Not written to the policy file.
	ForWire bool
}

// Gemini CLI drops any argsPattern its ReDoS heuristic flags: a group with
// a quantifier inside followed, anywhere later, by a group with a quantifier
// after it. The patterns built here therefore never put a quantifier after a
// group: optional parts are written as alternations with an empty branch,
// "(?:|x/)", and wildcards are quantified character classes.
//
// Wildcards differ by decision: a deny or ask pattern may match more than
// the rule (".*" may run past the end of the value), an allow pattern never
// more (it stops at any quote or backslash).

// anyChars returns the wildcard for "**" (any characters).
func anyChars(wide bool) string {
	if wide {
		return `.*`
	}
	return `[^"\\]*`
}

// segmentChars returns the wildcard for "*" in a path (within one directory).
func segmentChars(wide bool) string {
	if wide {
		return `[^/]*`
	}
	return `[^/"\\]*`
}

// BuildGeminiPolicy translates rules into Gemini CLI policy rules. root, if
// not empty, anchors relative paths of allow rules; without it those allow
// rules are left out (an allow must not be wider than the rule). Deny and ask
// rules with relative paths match the path at any depth: wider, never
// narrower. Rules Gemini has no tool for are returned as skipped. A
// shell command given a directory of its own is refused
// (geminiShellDirRule).
func BuildGeminiPolicy(rules Rules, root string) (out []GeminiRule, skipped []string) {
	// A rule of the same tool, arguments and decision as one written
	// before decides nothing more (each Read rule refuses grep_search
	// whole): written once.
	written := map[GeminiRule]bool{}
	for _, l := range []struct {
		list     []string
		decision string
		priority int
	}{
		{rules.Deny, "deny", geminiDenyPriority},
		{rules.Ask, "ask_user", geminiAskPriority},
		{rules.Allow, "allow", geminiAllowPriority},
	} {
		decision := l.decision
		if decision == "allow" {
			decision = geminiAllowDecision
		}
		for _, text := range l.list {
			r, gr, ok := geminiMCPRule(text, l.decision)
			if !ok {
				var err error
				if r, err = ParseRule(text); err != nil {
					skipped = append(skipped, text)
					continue
				}
				gr = geminiRules(r, l.decision, root)
			}
			if len(gr) == 0 {
				skipped = append(skipped, text)
				continue
			}
			for _, g := range gr {
				g.Decision = decision
				key := GeminiRule{ToolName: g.ToolName, MCPName: g.MCPName, CommandPrefix: g.CommandPrefix, CommandRegex: g.CommandRegex,
					ArgsPattern: g.ArgsPattern, Decision: g.Decision}
				if written[key] {
					continue
				}
				written[key] = true
				g.Priority, g.ForWire = l.priority, l.decision == "allow"
				g.Source = r.String()
				if l.decision == "deny" {
					g.DenyMessage = strings.TrimSuffix("acp-bridge policy denies "+r.String()+": "+g.DenyMessage, ": ")
				}
				out = append(out, g)
			}
		}
	}
	if len(out) == 0 && rules.Default == "" {
		return nil, skipped // no policy: Gemini runs as it would without the bridge
	}
	return append(out, geminiShellDirRule(), geminiDefaultRule(rules.Default)), skipped
}

// wholeTreeReaders are Gemini CLI's tools that read every file beneath a
// directory or glob they are given (grep_search over its dir_path or the
// cwd, read_many_files over each directory or glob of its include) or the
// names of the files there (glob over its dir_path or the cwd,
// list_directory in its dir_path), as Claude Code's Grep, Glob and LS do,
// which Read rules govern too; with what the model is told when a rule
// refuses them. No pattern over their arguments names the files they read
// (a glob's pattern reaches any depth, a listed directory holds what a rule
// names), so a rule refusing or asking about reading some file refuses or
// asks about them whole; the model is pointed at the shell, which the
// bridge decides file by file. Gemini's permission request for glob and
// list_directory carries neither its directory nor its pattern, so the
// wire alone approved a listing of a directory a Read rule refuses.
var wholeTreeReaders = map[string]string{
	"grep_search": "grep_search reads every file beneath its directory, and the policy refuses reading some files; " +
		"search with run_shell_command (grep -r PATTERN DIR), which acp-bridge checks file by file",
	"read_many_files": "read_many_files reads every file beneath the directories and globs it is given, and the policy " +
		"refuses reading some files; read each file with read_file",
	"glob": "glob lists the files beneath its directory, and the policy refuses reading some files; " +
		"list them with run_shell_command (find DIR -name PATTERN), which acp-bridge checks file by file",
	"list_directory": "list_directory lists a directory, and the policy refuses reading some files; " +
		"list it with run_shell_command (ls DIR), which acp-bridge checks file by file",
}

// geminiTools maps Claude Code tool names to Gemini CLI's.
var geminiTools = map[string][]string{
	"Bash":      {"run_shell_command"},
	"Read":      {"read_file", "read_many_files", "grep_search", "glob", "list_directory"},
	"Edit":      {"replace", "write_file"},
	"MultiEdit": {"replace"},
	"Write":     {"write_file"},
	"Grep":      {"grep_search"},
	"Glob":      {"glob"},
	"WebFetch":  {"web_fetch"},
	"WebSearch": {"google_web_search"},
}

func geminiRules(r Rule, decision, root string) []GeminiRule {
	tools, ok := geminiTools[r.Tool]
	if !ok {
		return nil
	}
	if r.Specifier == "" {
		out := make([]GeminiRule, len(tools))
		for i, t := range tools {
			out[i] = GeminiRule{ToolName: t}
		}
		return out
	}
	wide := decision != "allow"
	switch r.Tool {
	case "Bash":
		return []GeminiRule{bashRule(r.Specifier, wide)}
	case "Read", "Edit", "Write", "MultiEdit":
		re, ok := pathRegex(r.Specifier, wide, root)
		if !ok {
			return nil
		}
		var out []GeminiRule
		for _, t := range tools {
			if wholeTreeReaders[t] != "" && decision != "allow" {
				// No pattern over its arguments names the files it
				// reads: refused (or asked about) whole.
				g := GeminiRule{ToolName: t}
				if decision == "deny" {
					g.DenyMessage = wholeTreeReaders[t]
				}
				out = append(out, g)
				continue
			}
			if t != "read_many_files" && wholeTreeReaders[t] != "" {
				continue // an allow of some files is not one of a search or listing over all of them
			}
			if t == "read_many_files" {
				// Its paths are a list: match the path anywhere in the args.
				out = append(out, GeminiRule{ToolName: t, ArgsPattern: `"` + re + `"`})
				continue
			}
			out = append(out, GeminiRule{ToolName: t, ArgsPattern: `"file_path":"` + re + `"`})
		}
		if wide {
			// An MCP tool's arguments are its server's own: a path
			// anywhere in them. A server the person trusts runs its tools
			// without asking, before the wire shows the call.
			out = append(out, GeminiRule{ToolName: "mcp_*", ArgsPattern: `"` + re + `"`})
		}
		return out
	case "WebFetch":
		host, ok := strings.CutPrefix(r.Specifier, "domain:")
		if !ok || host == "" {
			return nil
		}
		return []GeminiRule{{ToolName: "web_fetch",
			ArgsPattern: `https?://(?:|[^/"\\]*\.)` + regexp.QuoteMeta(jsonInner(host)) + `(?:[:/"\\\s]|$)`}}
	}
	return nil
}

// bashRule translates a Bash specifier: "cmd:*" and "cmd *" are prefixes
// (Gemini's commandPrefix, which matches the command or the command followed
// by arguments), anything else an exact command with "*" wildcards.
func bashRule(spec string, wide bool) GeminiRule {
	if p, ok := strings.CutSuffix(spec, ":*"); ok && !strings.Contains(p, "*") {
		return GeminiRule{ToolName: "run_shell_command", CommandPrefix: p}
	}
	if p, ok := strings.CutSuffix(spec, " *"); ok && !strings.Contains(p, "*") {
		return GeminiRule{ToolName: "run_shell_command", CommandPrefix: p}
	}
	var b strings.Builder
	parts := strings.Split(spec, "*")
	for i, p := range parts {
		if i > 0 {
			b.WriteString(anyChars(wide))
		}
		b.WriteString(regexp.QuoteMeta(jsonInner(p)))
	}
	if !strings.HasSuffix(spec, "*") {
		b.WriteString(`"`)
	}
	return GeminiRule{ToolName: "run_shell_command", CommandRegex: b.String()}
}

// jsonInner returns s as it appears inside a JSON string.
func jsonInner(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// pathRegex translates a path glob to a regular expression over the path's
// JSON-encoded form. "**" matches across directories, "*" and "?" within one.
// A relative glob is anchored at root when the pattern must not be wide
// (false if root is empty), and otherwise may start at any directory.
func pathRegex(glob string, wide bool, root string) (string, bool) {
	var prefix string
	switch {
	case strings.HasPrefix(glob, "//"):
		glob = glob[1:]
	case strings.HasPrefix(glob, "/"):
	case strings.HasPrefix(glob, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		glob = filepath.ToSlash(home) + glob[1:]
	case strings.HasPrefix(glob, "**/"):
		prefix = `(?:|` + anyChars(wide) + `/)`
		glob = glob[3:]
	default:
		glob = strings.TrimPrefix(glob, "./")
		if !wide {
			if root == "" {
				return "", false
			}
			prefix = `(?:` + regexp.QuoteMeta(jsonInner(strings.TrimSuffix(filepath.ToSlash(root), "/"))) + `/|\./|)`
		} else {
			prefix = `(?:|` + anyChars(wide) + `/)(?:\./|)`
		}
	}
	var b strings.Builder
	b.WriteString(prefix)
	for i := 0; i < len(glob); {
		switch {
		case strings.HasPrefix(glob[i:], "**/"):
			b.WriteString(`(?:|` + anyChars(wide) + `/)`)
			i += 3
		case strings.HasPrefix(glob[i:], "**"):
			b.WriteString(anyChars(wide))
			i += 2
		case glob[i] == '*':
			b.WriteString(segmentChars(wide))
			i++
		case glob[i] == '?':
			b.WriteString(strings.TrimSuffix(segmentChars(wide), "*"))
			i++
		default:
			j := i
			for j < len(glob) && glob[j] != '*' && glob[j] != '?' {
				j++
			}
			b.WriteString(regexp.QuoteMeta(jsonInner(glob[i:j])))
			i = j
		}
	}
	return b.String(), true
}

// WriteGeminiPolicy renders rules as a Gemini CLI policy TOML file.
func WriteGeminiPolicy(rules []GeminiRule) []byte {
	var b strings.Builder
	b.WriteString("# Generated by acp-bridge from its policy; passed to Gemini CLI with --admin-policy.\n")
	b.WriteString("# Admin tier: these rules outrank user and workspace policies.\n")
	for _, r := range rules {
		b.WriteString("\n# from: ")
		b.WriteString(strings.ReplaceAll(r.Source, "\n", " "))
		b.WriteString("\n[[rule]]\n")
		kv := func(k, v string) {
			if v != "" {
				fmt.Fprintf(&b, "%s = %s\n", k, tomlString(v))
			}
		}
		kv("mcpName", r.MCPName)
		kv("toolName", r.ToolName)
		kv("commandPrefix", r.CommandPrefix)
		kv("commandRegex", r.CommandRegex)
		kv("argsPattern", r.ArgsPattern)
		kv("decision", r.Decision)
		fmt.Fprintf(&b, "priority = %d\n", r.Priority)
		if r.Modes != "" {
			var modes []string
			for _, m := range strings.Split(r.Modes, ",") {
				modes = append(modes, tomlString(m))
			}
			fmt.Fprintf(&b, "modes = [%s]\n", strings.Join(modes, ", "))
		}
		kv("denyMessage", r.DenyMessage)
	}
	return []byte(b.String())
}

// tomlString quotes s as a TOML string: a literal string ('...') when it can
// be one, which keeps regular expressions readable, else a basic string.
func tomlString(s string) string {
	literal := !strings.ContainsAny(s, "'\n\r")
	for _, c := range s {
		if c < 0x20 && c != '\t' || c == 0x7f {
			literal = false
		}
	}
	if literal {
		return "'" + s + "'"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c == 0x7f:
			b.WriteString(`\u` + fmt.Sprintf("%04X", c))
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// gemini is the Gemini CLI adapter (gemini --acp).
type gemini struct {
	built    []GeminiRule // the policy's rules in Gemini's form; nil: no policy
	dir      string       // set by Spawn: Gemini runs with the policy
	audit    Recorder
	operator string
	logger   *slog.Logger
	protect  func(...governance.ProtectedPath)
	session  func(string) (string, bool) // Config.session
}

func newGemini(cfg Config) (*gemini, error) {
	g := &gemini{logger: cfg.logger(), audit: cfg.Audit, operator: cfg.Operator, protect: cfg.protect, session: cfg.session}
	// Gemini CLI loads the first .env it finds from a session's directory
	// up (after .gemini/.env, which self-protection covers) into its own
	// environment, BASH_ENV among the variables, which its shell commands
	// inherit: a .env the agent wrote would run code in every command of
	// the next session.
	g.protect(governance.ProtectedPath{Path: ".env", BelowRoots: true,
		What: "the .env Gemini CLI loads into its environment from a session's directory or the nearest above it, whose variables, BASH_ENV among them, its shell commands inherit"})
	if g.operator == "" {
		g.operator = "agent:" + Gemini
	}
	rules, skipped := BuildGeminiPolicy(cfg.Rules, cfg.Root)
	for _, s := range skipped {
		g.logger.Info("adapter: rule has no Gemini CLI equivalent; enforced at the wire only", "rule", s)
	}
	g.built = rules
	return g, nil
}

func (g *gemini) Name() string { return Gemini }

// Spawn writes the policy file (0600, in a private directory), with the
// denies the MCP servers trusted in the settings Gemini will read call for
// (trustedDenies), and adds --admin-policy FILE to the agent's arguments.
func (g *gemini) Spawn(cmd *acpwire.AgentCommand) error {
	if len(g.built) == 0 {
		return nil
	}
	env, wd := cmd.Env, cmd.Dir // Gemini's environment, and the directory it reads workspace settings in
	if env == nil {
		env = os.Environ()
	}
	if wd == "" {
		wd, _ = os.Getwd()
	}
	trusted, unread := geminiTrustedServers(geminiSettingsFiles(env, wd))
	for _, u := range unread {
		g.logger.Warn("adapter: a Gemini CLI settings file cannot be read one way only; every MCP server counts as trusted, so what the policy asks about an MCP tool is refused", "file", u)
	}
	rules := append(slices.Clip(g.built), trustedDenies(g.built, trusted)...)
	if len(trusted) > 0 {
		g.logger.Info("adapter: Gemini CLI trusts MCP servers, whose tools it runs without asking; what the policy asks about them is refused", "servers", strings.Join(trusted, ", "))
	}
	policy := WriteGeminiPolicy(rules)
	dir, err := os.MkdirTemp("", "acp-bridge-gemini-")
	if err != nil {
		return fmt.Errorf("gemini adapter: %v", err)
	}
	g.dir = dir
	g.protect(governance.ProtectedPath{Path: dir, What: "the agent's policy file written by the bridge"})
	path := filepath.Join(dir, "acp-bridge-policy.toml")
	if err := os.WriteFile(path, policy, 0o600); err != nil {
		return fmt.Errorf("gemini adapter: writing the policy file: %v", err)
	}
	cmd.Args = append(cmd.Args[:len(cmd.Args):len(cmd.Args)], "--admin-policy", path)
	g.logger.Info("adapter: gemini gets the bridge's rules as an admin policy", "file", path, "rules", strconv.Itoa(len(rules)))
	if m, _ := filepath.Glob("/etc/gemini-cli/policies/*.toml"); len(m) > 0 {
		g.logger.Warn("adapter: Gemini CLI ignores --admin-policy when system policies exist", "dir", "/etc/gemini-cli/policies")
	}
	return nil
}

// geminiDenied is the text Gemini CLI reports for a call its policy engine
// refused ("Tool execution for \"Shell\" denied by policy.").
var geminiDenied = []byte("denied by policy")

// Observe records, as a deny decision, each tool call Gemini reports its own
// policy engine refused while it runs with the bridge's rules: Gemini decides
// those calls without asking anyone, so this is the bridge's only trace of
// the decision. Gemini reports neither the rule nor (for a refused call) the
// tool's input; the record says so. The record names the session by the
// IDE's id (the agent's is kept as agentSession when a rollover made them
// differ); an update in a session the IDE never opened, or closed, which
// governance drops, leaves none.
func (g *gemini) Observe(m *acpwire.Message) {
	if g.audit == nil || g.dir == "" || !bytes.Contains(m.Params, geminiDenied) {
		return
	}
	u, err := acpparams.UpdateOf(m, m.Params)
	if err != nil || !u.IsToolCall() || u.Status != "failed" || !bytes.Contains(u.Content, geminiDenied) {
		return
	}
	session, open := u.SessionID, true
	if g.session != nil {
		session, open = g.session(u.SessionID)
	}
	if !open {
		return
	}
	tool := strings.SplitN(u.ID, "__", 2)[0] // "run_shell_command__run_shell_command_17952..._0"
	ev := audit.Event{
		Actor:   auditActor,
		Action:  "tool.call",
		Subject: audit.Subject{Kind: "tool-call", Ref: u.ID},
		Input:   rawOrNil(u.RawInput),
		Output:  toolOutput(u.Content),
		Policy:  &audit.Policy{Ref: "gemini-admin-policy", Decision: "deny"},
		Metadata: map[string]any{
			"session":     session,
			"stage":       "agent-policy",
			"agent":       Gemini,
			"enforcement": "refused by Gemini CLI's policy engine, which runs with the bridge's rules as its admin policy; Gemini does not report which rule",
			"toolCall": audit.ToolCall{Kind: "tool-call", Operator: g.operator, Session: session, ToolCallID: u.ID,
				Tool: tool, Arguments: rawOrNil(u.RawInput), Error: toolOutput(u.Content)},
		},
	}
	if u.Title != "" {
		ev.Metadata["title"] = u.Title
	}
	if session != u.SessionID {
		ev.Metadata["agentSession"] = u.SessionID
	}
	if err := g.audit.AppendSync(ev); err != nil {
		g.logger.Error("adapter: audit record of a call Gemini refused", "toolCallId", u.ID, "err", err)
	}
}

// toolOutput is a refused call's content as the tool's output, stored as
// the audit log's --audit-content says (audit.ToolOutput), or nil.
func toolOutput(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return audit.ToolOutput(b)
}

// PatchSession leaves Gemini's sessions as the IDE opened them.
func (g *gemini) PatchSession(m *acpwire.Message) (*acpwire.Message, error) { return m, nil }

func (g *gemini) Close() error {
	if g.dir != "" {
		return os.RemoveAll(g.dir)
	}
	return nil
}
