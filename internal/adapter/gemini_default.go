package adapter

// geminiDefaultPriority is the priority of the rule carrying the policy's
// default: the lowest of the admin tier, so every rule the bridge writes
// outranks it, and it outranks Gemini CLI's own defaults and the user's
// and workspace's policies.
const geminiDefaultPriority = 1

// geminiDefaultRule returns the Gemini CLI rule for the policy's default
// (a rule for every tool, toolName "*"): deny under "deny", ask_user under
// "require-approval" or "escalate". Without it, a tool no rule names runs
// by Gemini CLI's own decision (its read-only tools without asking) even
// when the policy's default refuses it. It returns false for "allow" or
// an unknown default, which leave the decision to Gemini CLI and the
// bridge's wire-level enforcement.
func geminiDefaultRule(def string) (GeminiRule, bool) {
	g := GeminiRule{ToolName: "*", Priority: geminiDefaultPriority, Source: "default " + def}
	switch def {
	case "deny":
		g.Decision = "deny"
		g.DenyMessage = "acp-bridge policy denies what no rule allows (default deny)"
	case "require-approval", "escalate":
		g.Decision = "ask_user"
	default:
		return GeminiRule{}, false
	}
	return g, true
}
