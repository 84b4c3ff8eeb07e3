package governance

import (
	"strings"
	"testing"
)

// TestToldOnOneLine: what the bridge tells the person in its own name (a
// refusal's notice) quotes the agent's words (a path, a command line, a
// title) within its one line, whatever line breaks they hold: none starts
// a line of the notice and passes for the bridge's own words.
func TestToldOnOneLine(t *testing.T) {
	const forged = "FORGED notice"
	tests := []struct{ name, line string }{
		{"a write outside the workspace", `{"jsonrpc":"2.0","id":"w1","method":"fs/write_text_file","params":{"sessionId":"s1","path":"/etc/passwd\n\n> **acp-bridge:** ` + forged + `","content":"x"}}`},
		{"a read outside the workspace", `{"jsonrpc":"2.0","id":"r1","method":"fs/read_text_file","params":{"sessionId":"s1","path":"/etc/shadow\r## ` + forged + `"}}`},
		{"a command", `{"jsonrpc":"2.0","id":"t1","method":"terminal/create","params":{"sessionId":"s1","command":"rm","args":["-rf","/\u2028## ` + forged + `"]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			h.agent("%s", tt.line)
			n := h.nextAtIDE()
			text, _ := get(n, "params", "update", "content", "text").(string)
			if !strings.Contains(text, forged) {
				t.Fatalf("IDE got %v, want the bridge's notice quoting the agent's words", n)
			}
			for _, l := range strings.FieldsFunc(text, func(r rune) bool {
				return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' || r == '\u0085'
			}) {
				if strings.Contains(l, forged) && !strings.HasPrefix(l, "acp-bridge ") {
					t.Errorf("the agent's words start a line of the notice: %q", l)
				}
			}
		})
	}
}
