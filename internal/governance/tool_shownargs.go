package governance

import (
	"encoding/json"
	"regexp"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
)

// Gemini CLI reports a call to a tool of an MCP server of its own
// configuration with no rawInput, no name and no tool name: its title is
// the tool's display name, "read_text (notes MCP Server)" (or the call's
// command argument, when it has one), its kind "other", and its arguments
// are the text of its content, as JSON, or "[Payload omitted due to
// length ...]" past 500 characters. Judged by its title alone, such a call
// met no rule naming the tool (mcp__notes__*) and no rule naming a path
// among its arguments, and a policy allowing what no rule names had the
// bridge approve a read of .env through the server. So the bridge reads
// the call as Gemini tells it: the display name as the tool mcp__notes__read_text,
// the text as the call's input, and a call whose arguments Gemini left out
// needs approval.

// omittedArguments starts the text Gemini CLI shows for arguments it
// leaves out.
const omittedArguments = "[Payload omitted due to length"

// Gemini CLI's permission request for a run_shell_command given a
// dir_path has the command as its title and the directory only in its
// text, "[in secrets] (Touch)": a Gemini the bridge gave no policy file
// (one known by its agentInfo alone) had touch pwn.txt judged in the
// session's directory while it wrote secrets/pwn.txt. The directory that
// text names is the call's dir_path.

// textInput returns the input a call that carries no rawInput shows as the
// text of its first content block: for a call of kind other the text when
// it is a JSON object (read strictly), and hidden when it says its
// arguments were left out or is an object the bridge cannot read, and
// its input and hidden when the object holds a string command (which
// Gemini shows as the title in place of the tool's name); for an execute call the dir_path its text
// names (shellDirText).
func textInput(f *acpparams.ToolCall, kind string) (in json.RawMessage, hidden bool) {
	if kind == "execute" {
		return shellDirText(f)
	}
	if kind != "other" {
		return nil, false
	}
	text, ok := firstContentText(f)
	if !ok {
		return nil, false
	}
	if strings.HasPrefix(text, omittedArguments) {
		return nil, true
	}
	if !strings.HasPrefix(strings.TrimSpace(text), "{") {
		return nil, false
	}
	// An object the bridge cannot read strictly (a lone surrogate escaped
	// as JSON.stringify writes it, a member named twice) still holds the
	// arguments: left unread, the call would be judged on its title alone.
	var obj map[string]any
	if jsonv2.Unmarshal([]byte(text), &obj) != nil {
		return nil, true
	}
	// Gemini titles a call whose arguments hold a string command with that
	// command, in place of the tool's display name: the tool, and so the
	// server, is not shown, and no rule naming it can be met.
	_, unnamed := obj["command"].(string)
	return json.RawMessage(text), unnamed
}

// firstContentText returns the text of a call's first content block, and
// false when the call has none or that block's text is not a string.
func firstContentText(f *acpparams.ToolCall) (string, bool) {
	for i := range f.Items {
		item := &f.Items[i]
		if item.Type != "content" {
			continue
		}
		var text string
		if item.Text == nil || jsonv2.Unmarshal(item.Text, &text) != nil {
			return "", false
		}
		return text, true
	}
	return "", false
}

// mcpDisplayName matches Gemini CLI's display name of an MCP tool: the
// tool's name, then its server's in parentheses.
var mcpDisplayName = regexp.MustCompile(`^(\S+) \(([^()]+) MCP Server\)$`)

// mcpToolFromTitle returns the tool name, as Claude Code names MCP tools
// (mcpToolName), of a call titled with Gemini CLI's display name of an MCP
// tool, or "".
func mcpToolFromTitle(title string) string {
	m := mcpDisplayName.FindStringSubmatch(title)
	if m == nil {
		return ""
	}
	return mcpToolName(m[2], m[1])
}

// shellDirText returns, as the input {"dir_path": DIR}, the directory an
// execute call's first content text names as Gemini CLI shows a
// run_shell_command's dir_path: "[in DIR]", then " (DESCRIPTION)" and
// " [background]" when the call has them. A text in which the directory
// cannot be told from the rest (a "]" elsewhere) is hidden: the call needs
// approval.
func shellDirText(f *acpparams.ToolCall) (in json.RawMessage, hidden bool) {
	text, ok := firstContentText(f)
	if !ok {
		return nil, false
	}
	rest, ok := strings.CutPrefix(text, "[in ")
	if !ok {
		return nil, false
	}
	dir, after, ok := strings.Cut(rest, "]")
	after = strings.TrimSuffix(after, " [background]")
	if !ok || dir == "" || strings.Contains(after, "]") ||
		after != "" && !(strings.HasPrefix(after, " (") && strings.HasSuffix(after, ")")) {
		return nil, true
	}
	b, err := json.Marshal(map[string]string{"dir_path": dir})
	if err != nil {
		return nil, true
	}
	return b, false
}
