package adapter

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGeminiMCPRules: a rule naming MCP tools is written into Gemini's
// policy on mcpName and toolName, so Gemini's engine refuses or asks about
// the call before it runs (the wire sees only the tool's display name);
// a deny or ask rule may be written wider than it is, an allow rule never.
func TestGeminiMCPRules(t *testing.T) {
	// The rules that deny every tool of the server notes, and of every
	// server.
	serverDenied := []GeminiRule{{MCPName: "notes", ToolName: "*", Decision: "deny", Priority: geminiDenyPriority}}
	everyServerDenied := []GeminiRule{{ToolName: "mcp_*", Decision: "deny", Priority: geminiDenyPriority}}
	tests := []struct {
		name  string
		rules Rules
		want  []GeminiRule // the MCP rules written, in order
	}{
		{"a server's tools denied", Rules{Deny: []string{"mcp__notes__*"}}, serverDenied},
		{"a server named alone", Rules{Deny: []string{"mcp__notes"}}, serverDenied},
		{"one tool denied", Rules{Deny: []string{"mcp__notes__read_text"}},
			[]GeminiRule{{ToolName: "mcp_notes_read_text", Decision: "deny", Priority: geminiDenyPriority}}},
		{"one tool asked", Rules{Ask: []string{"mcp__notes__read_text"}},
			[]GeminiRule{{ToolName: "mcp_notes_read_text", Decision: "ask_user", Priority: geminiAskPriority}}},
		{"a tool wildcard denied: the server whole", Rules{Deny: []string{"mcp__notes__read_*"}}, serverDenied},
		{"every server denied", Rules{Deny: []string{"mcp__*"}}, everyServerDenied},
		{"a server wildcard denied: every server", Rules{Deny: []string{"mcp__no*__x"}}, everyServerDenied},
		{"an allowed tool is asked about", Rules{Allow: []string{"mcp__notes__read_text"}},
			[]GeminiRule{{ToolName: "mcp_notes_read_text", Decision: "ask_user", Priority: geminiAllowPriority, ForWire: true}}},
		{"an allow wider in Gemini's form is left out", Rules{Allow: []string{"mcp__notes__read_*", "mcp__no*"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, _ := BuildGeminiPolicy(tt.rules, "/ws")
			var got []GeminiRule
			for _, r := range rules {
				if r.MCPName != "" || strings.HasPrefix(r.ToolName, "mcp_") {
					r.Source, r.DenyMessage = "", ""
					got = append(got, r)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("BuildGeminiPolicy(%+v) MCP rules (-want +got):\n%s", tt.rules, diff)
			}
		})
	}
	rules, skipped := BuildGeminiPolicy(Rules{Deny: []string{"mcp__notes__*"}}, "/ws")
	if len(skipped) != 0 {
		t.Errorf("skipped %q", skipped)
	}
	toml := string(WriteGeminiPolicy(rules))
	if !strings.Contains(toml, "mcpName = 'notes'\ntoolName = '*'\ndecision = 'deny'\n") {
		t.Errorf("the policy file does not deny the server's tools:\n%s", toml)
	}
}
