package governance

import (
	"encoding/json"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// When the bridge asks the person about a tool call, the person approves
// what the IDE shows, and the bridge judged what the call runs. For a call
// of kind "execute", Zed shows the tool call's title as the command line
// (render_collapsible_command of the label) with the call's content, and
// never its rawInput ("View Raw Input" is offered for other kinds only);
// the TypeScript SDK's clients show the title too. An agent titling a call
// "touch y" whose rawInput.command is "touch y; python3 x.py" had the
// person approve a line they were never shown, which the agent then ran.
//
// So a permission request the bridge forwards for a call whose judged
// command is not the command its title reads as has its toolCall.title set
// to the judged command (the rest of the message byte for byte), and the
// title shown is recorded with the decision. The person's answer covers
// the title they saw: a title the agent changes while they decide makes
// the answer stale, as a changed input does.

// judgedTitle returns the title the IDE must show for a permission request
// about full, a call in session sid, and whether it differs from the
// title the agent gave.
func (x *Enforcer) judgedTitle(sid string, full ToolCall) (string, bool) {
	cwd, _ := x.sessionContext(sid)
	req := ToolCallRequest(full, cwd)
	if req.Kind != "execute" || req.Command == "" {
		return "", false
	}
	if titleCommand(full.Title) == req.Command {
		return "", false
	}
	return commandTitle(req.Command), true
}

// titleCommand reads a title as commandFromTitle reads it: trimmed, and
// without the backticks Claude Code puts around a command.
func titleCommand(title string) string {
	r := Request{Title: title}
	commandFromTitle(&r)
	return r.Command
}

// commandTitle is the title showing command: in backticks, as Claude Code
// titles its commands (the IDE renders the title as Markdown, so a command
// in code reads as it is), unless the command holds a backtick or a line
// break a code span cannot carry.
func commandTitle(command string) string {
	if strings.ContainsAny(command, "`\r\n") || strings.TrimSpace(command) != command {
		return command
	}
	return "`" + command + "`"
}

// showJudged returns m, a permission request, with its toolCall.title set
// to title.
func showJudged(m *acpwire.Message, title string) (*acpwire.Message, error) {
	b, err := json.Marshal(title)
	if err != nil {
		return nil, err
	}
	return m.Patch(b, "params", "toolCall", "title")
}
