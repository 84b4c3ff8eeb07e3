package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// PolicyEngine decides governance requests; *governance.Engine is one. It
// must be safe for concurrent use.
type PolicyEngine interface {
	Decide(req governance.Request) governance.Decision
}

// Recorder writes audit records; *audit.Log is one.
type Recorder interface {
	// AppendSync returns once ev is on stable storage.
	AppendSync(ev audit.Event) error
}

// PolicyDecider decides hook tool calls with the governance engine: the
// call becomes a governance.Request (governance.ClaudeToolRequest), and
// allow, deny, require-approval and escalate become Allow, Deny, Ask and Ask
// (the agent then asks the client, where the wire-level enforcement takes
// over). A call that cannot be turned into a request is denied, and so is
// one that needs approval in a mode where the agent would not ask (see
// PolicyDeciderIn).
func PolicyDecider(e PolicyEngine) Decider { return PolicyDeciderIn(e, Sessions{}) }

// Sessions looks up what the wire-level enforcement knows of the agent's
// sessions, by session id; *governance.Enforcer has both lookups
// (Enforcer.Roots and Enforcer.Mode). Either may be nil. Both must be safe
// for concurrent use.
type Sessions struct {
	// Roots returns the workspace roots of a session as the IDE opened
	// it, or nil for a session it does not know.
	Roots func(sessionID string) []string
	// Mode returns the session's mode as last seen on the wire (the
	// session/new result, an answered session/set_mode, the agent's
	// current_mode_update), or "" when none was seen.
	Mode func(sessionID string) string
	// IDE returns the IDE's id for the agent's session: after a
	// compression rollover the agent works in a session the bridge opened
	// for it, which the IDE, the wire-level records and the person know by
	// the id of the session it continues. nil means the agent's id is the
	// IDE's.
	IDE func(sessionID string) string
}

// ideSession returns the IDE's id for the agent's session id.
func (s Sessions) ideSession(id string) string {
	if s.IDE == nil || id == "" {
		return id
	}
	return s.IDE(id)
}

// PolicyDeciderIn is PolicyDecider with what the wire-level enforcement
// knows of the session the call is in.
//
// The workspace roots are the session's as the IDE opened it, rather than
// the cwd the hook payload claims: a model that moved its shell to / must
// not make / the workspace. Without s.Roots, or for a session it does not
// know, the hook's cwd is the root.
//
// A call the policy allows is answered Allow only in a mode that restricts
// no more than the policy (modesAllowKeeps, the stricter of the payload's
// and s.Mode's): in plan, dontAsk or a mode the bridge does not know it is
// left to Claude's own permission flow (NoOpinion), so the person's mode
// still applies.
//
// A call the policy sends to the person (require-approval, escalate) is
// denied unless the session is in a mode known to ask (modesThatAsk): Ask
// only lets Claude Code ask, and in bypassPermissions it runs the call
// without asking, in auto a classifier may approve it. The mode is the
// stricter of the hook payload's permission_mode and s.Mode's: either one
// naming a mode not known to ask denies. When neither names a mode the
// call stays Ask, and the wire-level enforcement records a call the agent
// runs unasked as a violation.
func PolicyDeciderIn(e PolicyEngine, s Sessions) Decider {
	return DeciderFunc(func(_ context.Context, c ToolCall) (Decision, error) {
		if k, ok := spacedPath(c.Input); ok {
			return Decision{Verdict: Deny, PolicyDecision: string(governance.Deny), PolicyRef: "spaced-path",
				Reason: fmt.Sprintf("acp-bridge: the tool's %s has spaces or line breaks at its start or end, which Claude Code drops "+
					"before opening the file, so it would not open the file the bridge judged; name the file without them", k)}, nil
		}
		req, err := governance.ClaudeToolRequest(c.Tool, c.Input, c.Cwd)
		if err != nil {
			return Decision{Verdict: Deny, Reason: "acp-bridge cannot read this tool call: " + err.Error(),
				PolicyDecision: string(governance.Deny), PolicyRef: "malformed-tool-input"}, nil
		}
		if s.Roots != nil {
			req.Roots = s.Roots(c.SessionID)
		}
		req.Session = c.SessionID
		d := e.Decide(req)
		// Text the call writes may import files into the model's context
		// (governance.WithImports); every string of its input is judged.
		file := toolPath(c.Input)
		if file != "" && !filepath.IsAbs(file) && c.Cwd != "" {
			file = filepath.Join(c.Cwd, file)
		}
		d = governance.WithImports(e.Decide, d, req, file, governance.InputTexts(c.Input)...)
		out := Decision{Reason: decisionReason(d), Rule: d.Rule, PolicyRef: d.Ref, PolicyDecision: string(d.Value)}
		wire := ""
		if s.Mode != nil {
			wire = s.Mode(c.SessionID)
		}
		switch d.Value {
		case governance.Allow:
			out.Verdict = Allow
			if mode, ok := modeOutside(modesAllowKeeps, c.Mode, wire); ok {
				out.Verdict = NoOpinion
				out.Reason += "; " + leftToMode(mode)
			}
		case governance.Deny:
			out.Verdict = Deny
		default:
			out.Verdict = Ask
			if mode, ok := modeOutside(modesThatAsk, c.Mode, wire); ok {
				return Decision{Verdict: Deny, Rule: d.Rule, PolicyRef: "mode-does-not-ask", PolicyDecision: string(governance.Deny),
					Reason: out.Reason + ": this needs the person's approval, and " + unaskedBecause(mode) +
						"; switch the session to a mode that asks (Default, Accept Edits) to be asked"}, nil
			}
		}
		return out, nil
	})
}

// modesThatAsk are the Claude Code permission modes in which a hook's
// "ask" reaches the person: claude-agent-acp's canUseTool sends it to the
// client as session/request_permission (default, acceptEdits, plan), or
// denies it (dontAsk). Any other mode, one added later included, is not
// known to ask.
var modesThatAsk = map[string]bool{"default": true, "acceptEdits": true, "plan": true, "dontAsk": true}

// modeOutside returns the first of the hook payload's and the wire's
// modes that is set and not in modes (modesThatAsk, modesAllowKeeps).
// When neither names a mode it reports none: the bridge knows of no mode
// to go by.
func modeOutside(modes map[string]bool, payload, wire string) (string, bool) {
	for _, m := range []string{payload, wire} {
		if m != "" && !modes[m] {
			return m, true
		}
	}
	return "", false
}

// unaskedBecause says, for the user, what Claude Code does with a call
// that needs approval in mode.
func unaskedBecause(mode string) string {
	switch mode {
	case "bypassPermissions":
		return "in Claude's bypassPermissions mode Claude Code runs it without asking"
	case "auto":
		return "in Claude's auto mode a model classifier, not the person, may approve it"
	}
	return fmt.Sprintf("Claude's mode %s is not one known to ask the person", strconv.QuoteToASCII(mode))
}

// spacedPath returns the name of a member of a tool's input that holds a
// path with whitespace at its start or end, if there is one. Claude Code
// expands every path its tools take (file_path, notebook_path, Glob's and
// Grep's path) after JavaScript's String.prototype.trim, which drops
// spaces, tabs, line breaks, U+00A0, U+FEFF and the other Unicode spaces:
// "WS/.env " reads WS/.env, and " /elsewhere/x", a relative name to the
// bridge, writes /elsewhere/x. Every top-level string member whose name
// ends in "path" (any case) is looked at; unicode.IsSpace and U+FEFF cover
// what trim drops (and U+0085, which it keeps: refused all the same).
func spacedPath(input json.RawMessage) (string, bool) {
	var in map[string]any
	if decodeObject(input, &in) != nil {
		return "", false // ClaudeToolRequest refuses what cannot be read
	}
	for _, k := range slices.Sorted(maps.Keys(in)) {
		s, ok := in[k].(string)
		if !ok || s == "" || !strings.HasSuffix(strings.ToLower(k), "path") {
			continue
		}
		first, _ := utf8.DecodeRuneInString(s)
		last, _ := utf8.DecodeLastRuneInString(s)
		if trimmedByJS(first) || trimmedByJS(last) {
			return k, true
		}
	}
	return "", false
}

func trimmedByJS(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' }

func decisionReason(d governance.Decision) string {
	var b strings.Builder
	b.WriteString("acp-bridge policy: ")
	b.WriteString(string(d.Value))
	if d.Reason != "" {
		b.WriteString(": " + d.Reason)
	}
	if d.Rule != "" {
		b.WriteString(" (rule: " + d.Rule + ")")
	}
	return b.String()
}

// auditActor is who made a hook decision: the bridge's policy, as for the
// wire-level decisions.
var auditActor = audit.Actor{ID: "acp-bridge", Role: "policy"}

// AuditOptions configures Audited.
type AuditOptions struct {
	// FailOpen keeps decisions when the record cannot be written; by
	// default such calls are denied.
	FailOpen bool
	// Operator names the agent in the tool-call mirror (e.g.
	// "agent:claude-agent-acp"); optional, defaults to the adapter name.
	Operator string
	// Logger; nil means discard.
	Logger *slog.Logger
	// Sessions names the session a record is in: its IDE lookup gives
	// the IDE's id for the agent's (see Sessions.IDE); optional.
	Sessions Sessions
}

// Audited records every decision of next in the audit log before it is
// returned, with the tool's real name and input: action "tool.call",
// subject the tool call, policy {ref, decision}, and under metadata the
// AIP-44 tool-call mirror, the session, the rule, the reason, "stage":
// "hook", and the updated input when Tier 1 changed it. The session is the
// IDE's (opts.Sessions), as in every other record of the log, with the
// agent's own id as "agentSession" when it differs (after a compression
// rollover). If the record cannot be written the call is denied, unless
// opts.FailOpen.
func Audited(next Decider, rec Recorder, opts AuditOptions) Decider {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return DeciderFunc(func(ctx context.Context, c ToolCall) (Decision, error) {
		d, err := next.DecideTool(ctx, c)
		if err != nil {
			d = Decision{Verdict: Deny, Reason: "acp-bridge: policy decision failed: " + err.Error(), PolicyDecision: string(governance.Deny), PolicyRef: "decision-error"}
		}
		if rec == nil {
			return d, nil
		}
		polDecision := d.PolicyDecision
		if polDecision == "" {
			polDecision = verdictDecision(d.Verdict)
		}
		ref := d.PolicyRef
		if ref == "" {
			ref = "agent-hook"
		}
		operator := opts.Operator
		if operator == "" {
			operator = c.Agent
		}
		session := opts.Sessions.ideSession(c.SessionID)
		mirror := audit.ToolCall{Kind: "tool-call", Operator: operator, Session: session, ToolCallID: c.ToolUseID,
			Tool: c.Tool, Arguments: rawOrNil(c.Input)}
		if d.Verdict == Allow {
			mirror.Approval = "auto"
		}
		md := map[string]any{"toolCall": mirror, "stage": "hook", "agent": c.Agent, "reason": d.Reason}
		if session != "" {
			md["session"] = session
		}
		if session != c.SessionID {
			md["agentSession"] = c.SessionID
		}
		if d.Rule != "" {
			md["rule"] = d.Rule
		}
		if len(d.UpdatedInput) > 0 {
			md["updatedInput"] = d.UpdatedInput
		}
		ev := audit.Event{Actor: auditActor, Action: "tool.call",
			Subject: audit.Subject{Kind: "tool-call", Ref: c.ToolUseID, Path: toolPath(c.Input)},
			Input:   rawOrNil(c.Input), Policy: &audit.Policy{Ref: ref, Decision: polDecision}, Metadata: md}
		if err := rec.AppendSync(ev); err != nil {
			logger.Error("adapter: audit record of a hook decision failed", "tool", c.Tool, "err", err)
			if !opts.FailOpen {
				return Decision{Verdict: Deny, Reason: "acp-bridge: the audit log cannot be written, so tool calls are denied: " + err.Error()}, nil
			}
		}
		return d, nil
	})
}

func verdictDecision(v Verdict) string {
	switch v {
	case Allow:
		return string(governance.Allow)
	case Deny:
		return string(governance.Deny)
	case Ask:
		return string(governance.RequireApproval)
	}
	return ""
}

func rawOrNil(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// toolPath returns the file a tool input names, if any.
func toolPath(input json.RawMessage) string {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Path         string `json:"path"`
	}
	if decodeObject(input, &in) != nil {
		return ""
	}
	for _, p := range []string{in.FilePath, in.NotebookPath, in.Path} {
		if p != "" {
			return p
		}
	}
	return ""
}

// RulesFromPolicy picks, from a governance policy's rule lines
// (governance.Policy.Rules: "deny Read(**/.env) (GOVERNANCE.md:12)"), the
// compact rules written in Claude Code's permission syntax, by decision.
// AIP-7 policy entries ("policy no-secrets ...") and advisory rules have no
// native form and are left to the hook and the wire. A rule for MCP tools
// with wildcards (mcp__notes__*) is kept although a tool name of Claude
// Code's has none: Gemini CLI's policy has a form for it, and a server the
// person trusts runs its tools before the wire sees them.
func RulesFromPolicy(lines []string) Rules {
	var r Rules
	for _, l := range lines {
		if strings.HasSuffix(l, " [advisory]") {
			continue
		}
		value, rest, ok := strings.Cut(l, " ")
		if !ok {
			continue
		}
		if i := strings.LastIndex(rest, " ("); i >= 0 && strings.HasSuffix(rest, ")") {
			rest = rest[:i]
		}
		if _, err := ParseRule(rest); err != nil {
			if _, _, mcp := geminiMCPRule(rest, "deny"); !mcp {
				continue
			}
		}
		switch governance.Value(value) {
		case governance.Deny:
			r.Deny = append(r.Deny, rest)
		case governance.RequireApproval, governance.Escalate:
			r.Ask = append(r.Ask, rest)
		case governance.Allow:
			r.Allow = append(r.Allow, rest)
		}
	}
	return r
}
