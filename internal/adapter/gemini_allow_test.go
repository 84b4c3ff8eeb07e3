package adapter

import "testing"

// TestGeminiAllowAsks: no rule the bridge writes lets Gemini CLI run a call
// on its own decision. An allow rule becomes ask_user, so Gemini sends a
// permission request that the bridge decides with the whole policy (a
// command allowed by its prefix may still name a denied file, a protected
// one or one outside the workspace), answering it itself when the policy
// allows the call.
func TestGeminiAllowAsks(t *testing.T) {
	rules, _ := BuildGeminiPolicy(Rules{
		Allow: []string{"Bash", "Bash(touch:*)", "Bash(git status)", "Read", "Read(./src/**)", "Edit(**/*.go)",
			"Write", "Grep", "Glob", "WebFetch(domain:example.com)", "WebSearch"},
		Deny:    []string{"Write(**/denied.txt)"},
		Default: "deny",
	}, "/work/ws")
	if len(rules) == 0 {
		t.Fatal("no rules written")
	}
	for _, r := range rules {
		if r.Decision == "allow" {
			t.Errorf("rule from %s lets Gemini run %s without asking: %+v", r.Source, r.ToolName, r)
		}
	}
	if rules[0].Decision != "deny" || rules[0].Priority <= geminiAllowPriority {
		t.Errorf("first rule %+v: want the deny rule above the allow rules", rules[0])
	}
}
