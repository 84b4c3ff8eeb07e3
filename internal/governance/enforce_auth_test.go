package governance

import (
	"encoding/json"
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

// FuzzTerminalAuthRequest: an auth method some IDE would run in a terminal
// is never taken for one it would not. Read as JavaScript reads it (names
// exact, the last of duplicate names kept; a case variant, which a Go
// client would read, the wire layer refuses in an initialize response), a
// method whose
// _meta holds "terminal-auth" or whose type is "terminal" gets a terminal
// request or an error from terminalAuthRequest, never neither; and a
// request it returns names no cwd, so it is denied.
func FuzzTerminalAuthRequest(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","name":"Log in"}`,
		`{"id":"t","name":"T","type":"terminal","args":["--login"],"env":{"A":"b"}}`,
		`{"id":"m","name":"M","_meta":{"terminal-auth":{"label":"L","command":"rm","args":["x"],"env":{"BASH_ENV":"/x"}}}}`,
		`{"id":"k","type":"env_var","varName":"K","_meta":{"terminal-auth":{"command":"sh"}}}`,
		`{"id":"d","_meta":{"terminal-auth":1,"terminal-auth":{"command":"rm"}}}`,
		`{"id":"e","_meta":{"terminal-auth":{"command":"sh","args":["-c",5]}}}`,
		`{"type":"terminal","type":"agent"}`, `[]`, `null`, `{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		req, _, err := terminalAuthRequest(json.RawMessage(raw))
		if req != nil && !req.NoCwd {
			t.Fatalf("%s: a terminal request with a cwd", raw)
		}
		// Maps: names exact, the last duplicate kept.
		var lenient map[string]any
		if err != nil || req != nil || json.Unmarshal([]byte(raw), &lenient) != nil {
			return
		}
		meta, _ := lenient["_meta"].(map[string]any)
		if _, ok := meta["terminal-auth"]; ok || lenient["type"] == "terminal" {
			t.Fatalf("%s: a method the IDE runs in a terminal was taken for one it does not", raw)
		}
	})
}
