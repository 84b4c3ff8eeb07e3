package governance

import (
	"fmt"
	"strconv"
)

// A permission request the agent sends is the person's question: the
// policy's allow answers it for them only where the person's own choice
// of mode would not be overridden. In Claude's plan mode (no edits or
// commands until the person approves the plan) claude-agent-acp asks
// about each edit and command, and about ExitPlanMode, whose answer picks
// the mode the session continues in; answered "allow" by the bridge, a
// Write ran in plan mode and the model left plan mode unasked, neither
// seen by the person. Those requests go to the person whatever the policy
// allows (a deny still refuses them).

// modesPolicyAnswers are the modes in which the policy's allow answers a
// permission request for the person: no mode (the agent has none),
// Claude Code's default, acceptEdits, auto and bypassPermissions, Gemini
// CLI's default, autoEdit and yolo, and Codex's auto and full-access,
// where the agent asks no more than the policy does. Any other mode
// (Claude's and Gemini CLI's plan, Claude's dontAsk, Codex's read-only, a
// mode added later, one the bridge could not read) may restrict more.
var modesPolicyAnswers = map[string]bool{"": true, "default": true, "acceptEdits": true, "auto": true,
	"bypassPermissions": true, "autoEdit": true, "yolo": true, "full-access": true}

// ModeLeavesToPerson reports whether, in a session in mode, every
// permission request the policy allows still goes to the person: in every
// mode but modesPolicyAnswers, such as Claude's and Gemini CLI's "plan",
// Claude's "dontAsk" (which asks nothing, so a request in it is
// unexpected), Codex's "read-only", and a mode the bridge could not read
// (ModeUnreadable) or does not know.
func ModeLeavesToPerson(mode string) bool {
	return !modesPolicyAnswers[mode]
}

// modeSwitchTools are the agents' tools that leave plan mode once the
// person approves: Claude Code's ExitPlanMode and Gemini CLI's
// exit_plan_mode.
var modeSwitchTools = map[string]bool{"ExitPlanMode": true, "exit_plan_mode": true}

// personAnswers returns why a permission request about call, in session
// sid, that the policy allows still goes to the person: the call changes
// the session's mode (kind switch_mode, or a tool that leaves plan mode),
// or the session is in a mode that leaves every question to the person.
func (x *Enforcer) personAnswers(sid string, call ToolCall) (string, bool) {
	if switchesMode(call) {
		return "the call changes the session's mode, which only the person chooses", true
	}
	if mode := x.Mode(sid); ModeLeavesToPerson(mode) {
		return fmt.Sprintf("the session is in mode %s, where the person approves each edit and command themselves",
			strconv.QuoteToASCII(mode)), true
	}
	return "", false
}

// switchesMode reports whether call changes the session's mode: kind
// switch_mode, or a tool that leaves plan mode.
func switchesMode(call ToolCall) bool {
	return call.Kind == "switch_mode" || modeSwitchTools[call.Tool] || modeSwitchTools[call.Name]
}
