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

// ModeLeavesToPerson reports whether, in a session in mode, every
// permission request the policy allows still goes to the person: Claude's
// and Gemini CLI's "plan", Claude's "dontAsk" (which asks nothing, so a
// request in it is unexpected), and a mode the bridge could not read
// (ModeUnreadable), which may be either.
func ModeLeavesToPerson(mode string) bool {
	return mode == "plan" || mode == "dontAsk" || mode == ModeUnreadable
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
	if call.Kind == "switch_mode" || modeSwitchTools[call.Tool] || modeSwitchTools[call.Name] {
		return "the call changes the session's mode, which only the person chooses", true
	}
	if mode := x.Mode(sid); ModeLeavesToPerson(mode) {
		return fmt.Sprintf("the session is in mode %s, where the person approves each edit and command themselves",
			strconv.QuoteToASCII(mode)), true
	}
	return "", false
}
