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

// textInput returns the input a call of kind other, which carries no
// rawInput, shows as the text of its first content block: the text when it
// is a JSON object (read strictly), and hidden when it says its arguments
// were left out.
func textInput(f *acpparams.ToolCall, kind string) (in json.RawMessage, hidden bool) {
	if kind != "other" {
		return nil, false
	}
	for i := range f.Items {
		item := &f.Items[i]
		if item.Type != "content" {
			continue
		}
		var text string
		if item.Text == nil || jsonv2.Unmarshal(item.Text, &text) != nil {
			return nil, false
		}
		if strings.HasPrefix(text, omittedArguments) {
			return nil, true
		}
		var obj map[string]any
		if !strings.HasPrefix(strings.TrimSpace(text), "{") || jsonv2.Unmarshal([]byte(text), &obj) != nil {
			return nil, false
		}
		return json.RawMessage(text), false
	}
	return nil, false
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
