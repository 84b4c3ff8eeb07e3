package adapter

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/golden"
)

// TestGeminiPolicyDefault: the policy's default reaches Gemini CLI's admin
// policy as a rule for every tool below the bridge's own rules, so a tool
// no rule names is refused (default deny) or asked about (approval), not
// run by Gemini's own decision; an allow default asks, outside plan
// mode, so that the bridge decides each call (yolo mode would otherwise run
// every tool unjudged).
func TestGeminiPolicyDefault(t *testing.T) {
	for _, tc := range []struct {
		def, golden string
	}{
		{"deny", "testdata/gemini-policy-default-deny.toml"},
		{"require-approval", "testdata/gemini-policy-default-ask.toml"},
	} {
		rules, _ := BuildGeminiPolicy(Rules{Deny: []string{"Read(**/.env)"}, Allow: []string{"Bash(ls:*)"}, Default: tc.def}, "/work/ws")
		golden.Check(t, tc.golden, WriteGeminiPolicy(rules))
		last := rules[len(rules)-1]
		if last.ToolName != "*" || last.Priority >= geminiAllowPriority {
			t.Errorf("default %s: last rule %+v, want toolName * below every other rule", tc.def, last)
		}
	}
	for _, def := range []string{"allow", ""} {
		rules, _ := BuildGeminiPolicy(Rules{Allow: []string{"Bash(ls:*)"}, Default: def}, "/work/ws")
		last := rules[len(rules)-1]
		if last.ToolName != "*" || last.Decision != "ask_user" || last.Modes != "default,autoEdit,yolo" {
			t.Errorf("default %q: last rule %+v, want ask_user for every tool in every mode but plan", def, last)
		}
	}
}
