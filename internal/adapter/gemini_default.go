package adapter

import "strings"

// geminiDefaultPriority is the priority of the rule carrying the policy's
// default: the lowest of the admin tier, so every rule the bridge writes
// outranks it, and it outranks Gemini CLI's own defaults and the user's
// and workspace's policies.
const geminiDefaultPriority = 1

// geminiModesBut is every Gemini CLI approval mode but plan: the modes in
// which Gemini's own rules run calls without asking (read-only tools in
// default, edits and web_fetch in autoEdit, every tool in yolo).
const geminiModesBut = "default,autoEdit,yolo"

// geminiDefaultRule returns the Gemini CLI rule for the policy's default
// (a rule for every tool, toolName "*"): deny under "deny", ask_user
// otherwise. Without it, a tool no rule names runs by Gemini CLI's own
// decision (its read-only tools without asking, every tool in yolo mode)
// even when the bridge's policy refuses the call. Under "allow" (or a
// default the adapter does not know) the rule is ask_user too, so the bridge
// decides each call with its whole policy and approves an allowed one itself;
// it leaves out Gemini's plan mode, whose own rules refuse what is not
// read-only, which an ask the bridge approves would otherwise let through.
func geminiDefaultRule(def string) GeminiRule {
	g := GeminiRule{ToolName: "*", Priority: geminiDefaultPriority, Source: strings.TrimSpace("default " + def)}
	switch def {
	case "deny":
		g.Decision = "deny"
		g.DenyMessage = "acp-bridge policy denies what no rule allows (default deny)"
	case "require-approval", "escalate":
		g.Decision = "ask_user"
	default:
		g.Decision, g.ForWire = "ask_user", true
		g.Modes = geminiModesBut
	}
	return g
}
