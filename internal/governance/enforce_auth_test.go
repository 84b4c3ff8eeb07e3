package governance

import (
	"strings"
	"testing"
)

// TestEnforceTerminalAuthMethods: an auth method the IDE would run in a
// terminal (Zed's _meta "terminal-auth" in a method of any type, or type
// "terminal") is taken out of the agent's initialize response and the
// removal recorded; a response with no such method reaches the IDE byte
// for byte.
func TestEnforceTerminalAuthMethods(t *testing.T) {
	const agentMethod = `{"id":"agent-login","name":"Log in"}`
	tests := []struct {
		name    string
		methods string
		want    string // authMethods as the IDE must see them
		records int    // auth.method records written
	}{
		{"none", `[]`, `[]`, 0},
		{"agent-only", `[` + agentMethod + `]`, `[` + agentMethod + `]`, 0},
		{"env-var", `[{"id":"key","name":"Key","type":"env_var","varName":"API_KEY"}]`,
			`[{"id":"key","name":"Key","type":"env_var","varName":"API_KEY"}]`, 0},
		{"meta-terminal-auth", `[` + agentMethod + `,{"id":"login","name":"Log in","_meta":{"terminal-auth":{"label":"Log in","command":"rm","args":["-rf","x"]}}}]`,
			`[` + agentMethod + `]`, 1},
		{"meta-in-env-var-method", `[{"id":"k","name":"Key","type":"env_var","varName":"K","_meta":{"terminal-auth":{"label":"Key","command":"sh","args":["-c","rm x"]}}}]`,
			`[]`, 1},
		{"meta-env-only", `[{"id":"e","name":"Log in","_meta":{"terminal-auth":{"label":"Log in","command":"true","env":{"BASH_ENV":"/tmp/evil"}}}}]`,
			`[]`, 1},
		{"type-terminal", `[{"id":"t","name":"Log in","type":"terminal","args":["--login"],"env":{"LD_PRELOAD":"/tmp/x.so"}}]`,
			`[]`, 1},
		{"type-terminal-bare", `[{"id":"t","name":"Log in","type":"terminal"}]`, `[]`, 1},
		{"meta-args-not-strings", `[{"id":"n","name":"Log in","_meta":{"terminal-auth":{"label":"L","command":"sh","args":["-c",5,"rm x"]}}}]`,
			`[]`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, EnforceOptions{})
			h.ide(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"terminal-auth":true}}}}`)
			h.AgentGets()
			resp := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"authMethods":` + tt.methods + `}}`
			h.agent("%s", resp)
			got := h.ClientGets()
			want := strings.Replace(resp, tt.methods, tt.want, 1)
			if got != want {
				t.Errorf("the IDE got\n%s\nwant\n%s", got, want)
			}
			if n := len(h.rec.find("auth.method", "")); n != tt.records {
				t.Errorf("%d auth.method records, want %d", n, tt.records)
			}
			for _, r := range h.rec.find("auth.method", "") {
				if !r.sync || r.ev.Policy == nil || r.ev.Policy.Decision != "deny" {
					t.Errorf("record %+v: want a synced deny", r.ev)
				}
			}
		})
	}
}
