package adapter

import (
	"fmt"
	"strconv"
)

// A policy's allow answers for the policy, not for the person's choice of
// mode. Claude Code's hook "allow" makes Claude skip its own permission
// handling, and with it what the session's mode restricts: in plan mode
// (no edits or commands until the person approves the plan) a Write the
// policy allows ran unasked, and in dontAsk (nothing runs unless Claude's
// own rules allow it) it ran too. So the hook answers "allow" only in the
// modes that restrict no more than the policy does (modesAllowKeeps);
// in any other mode it leaves a call the policy allows to Claude
// (NoOpinion), whose mode then asks the person (plan) or refuses it
// (dontAsk), and the wire-level enforcement leaves that question to the
// person (governance.ModeLeavesToPerson).

// modesAllowKeeps are the Claude Code permission modes in which the hook
// answers a call the policy allows with "allow": in default and
// acceptEdits Claude would at most ask the person, in auto a classifier,
// and bypassPermissions runs every call unasked. A mode not named here,
// one added later or unreadable included, may restrict more.
var modesAllowKeeps = map[string]bool{"default": true, "acceptEdits": true, "auto": true, "bypassPermissions": true}

// leftToMode says, for the audit record's reason, why a call the policy
// allows was left to Claude in mode.
func leftToMode(mode string) string {
	switch mode {
	case "plan":
		return "left to Claude's plan mode, which asks the person before any edit or command until they approve the plan"
	case "dontAsk":
		return "left to Claude's dontAsk mode, which refuses what Claude's own permission rules do not allow"
	}
	return fmt.Sprintf("left to Claude's mode %s, which may restrict more than the policy", strconv.QuoteToASCII(mode))
}
