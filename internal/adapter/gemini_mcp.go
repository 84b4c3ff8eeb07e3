package adapter

import "strings"

// Gemini CLI tells the client little of a call to a tool of an MCP server
// of its own configuration: the tool's display name ("read_text (notes MCP
// Server)") as the title, its arguments as text, and no rawInput or tool
// name, and a server the person marked trusted runs its tools without any
// permission request. Gemini's own policy engine sees the tool before the
// call, so a rule naming an MCP tool is written for it there too.
//
// Gemini 0.61 names a server's tool mcp_SERVER_TOOL: a tool is named whole
// (toolName mcp_notes_read_text), every MCP tool is mcp_*, and a rule for
// all of one server's tools is written on mcpName as Gemini documents it
// (e2e TestAdapterGeminiMCPTool: a trusted server's tool does not run
// under deny mcp__notes__*). The wire decides too, where the bridge reads
// the server and the tool from the call's title.

// geminiMCPRule translates text, a rule of the policy's list of decision
// (deny, ask_user or allow), when it names MCP tools as Claude Code does:
// mcp__SERVER__TOOL, mcp__SERVER (every tool of the server), with "*"
// wildcards. A wildcard in the server's name stands for every server (mcp_*),
// one in the tool's name for every tool of the server: wider than the rule,
// as a deny or ask rule may be; an allow rule is written only when it is no
// wider (Gemini asks about what it allows, and the bridge decides). ok is
// false for a rule of another tool, or one with an argument. r is the rule
// as it is recorded, out its Gemini rules (none for an allow rule that
// cannot be written).
func geminiMCPRule(text, decision string) (r Rule, out []GeminiRule, ok bool) {
	text = strings.TrimSpace(text)
	rest, found := strings.CutPrefix(text, "mcp__")
	if !found || strings.ContainsAny(text, "() \t") {
		return Rule{}, nil, false
	}
	r = Rule{Tool: text}
	server, tool, _ := strings.Cut(rest, "__")
	switch {
	case server == "" || strings.Contains(server, "*"):
		if decision == "allow" && server != "*" {
			return r, nil, true
		}
		return r, []GeminiRule{{ToolName: "mcp_*"}}, true
	case tool == "" || strings.Contains(tool, "*"):
		if decision == "allow" && tool != "" && tool != "*" {
			return r, nil, true
		}
		return r, []GeminiRule{{MCPName: server, ToolName: "*"}}, true
	}
	return r, []GeminiRule{{ToolName: "mcp_" + server + "_" + tool}}, true
}
