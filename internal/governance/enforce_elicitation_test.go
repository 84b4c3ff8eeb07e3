package governance

import (
	"strings"
	"testing"
)

// TestElicitationURL: an agent's url-mode elicitation reaches the IDE when
// its URL is an http or https page the policy lets the agent fetch (or
// asks about: the IDE asks the person before it opens it), and is refused,
// never reaching the IDE, for a domain the policy denies or a scheme that
// is not a page's; a form passes. Each is recorded.
func TestElicitationURL(t *testing.T) {
	tests := []struct {
		name, params string
		refused      bool
		why          string
	}{
		{"an allowed page", `"mode":"url","elicitationId":"e1","message":"Sign in","url":"https://example.com/login"`, false, ""},
		{"a page the policy asks about", `"mode":"url","elicitationId":"e1","message":"Sign in","url":"https://other.example/x"`, false, ""},
		{"a denied domain", `"mode":"url","elicitationId":"e1","message":"Sign in","url":"https://evil.example/?k=SECRET"`, true, "evil.example"},
		{"a local file", `"mode":"url","elicitationId":"e1","message":"Open","url":"file:///etc/passwd"`, true, "not an http or https page"},
		{"javascript", `"mode":"url","elicitationId":"e1","message":"Open","url":"javascript:alert(1)"`, true, "not an http or https page"},
		{"the IDE's own scheme", `"mode":"url","elicitationId":"e1","message":"Open","url":"zed://settings"`, true, "not an http or https page"},
		{"a scheme in capitals", `"mode":"url","elicitationId":"e1","message":"Open","url":"FILE:///etc/passwd"`, true, "not an http or https page"},
		{"a url under another mode", `"mode":"custom","elicitationId":"e1","message":"Open","url":"file:///etc/passwd"`, true, "not an http or https page"},
		{"a url mode without a url", `"mode":"url","elicitationId":"e1","message":"Open"`, true, "not an http or https page"},
		{"a form", `"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}`, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			h.agent(`{"jsonrpc":"2.0","id":"el1","method":"elicitation/create","params":{"sessionId":"s1",%s}}`, tt.params)
			if !tt.refused {
				if m := h.nextAtIDE(); m["method"] != "elicitation/create" {
					t.Fatalf("IDE got %v, want the elicitation", m)
				}
			} else {
				m := h.nextAtAgent()
				msg, _ := get(m, "error", "message").(string)
				if m["id"] != "el1" || !strings.Contains(msg, tt.why) {
					t.Fatalf("agent got %v, want a refusal about %q", m, tt.why)
				}
				n := h.nextAtIDE()
				if text, _ := get(n, "params", "update", "content", "text").(string); !strings.Contains(text, "acp-bridge blocked") {
					t.Fatalf("IDE got %v, want the bridge's notice", n)
				}
				h.marker() // nothing else reached the IDE
			}
			if got := h.rec.find("elicitation.create", ""); len(got) != 1 {
				t.Errorf("%d elicitation.create records, want 1", len(got))
			}
		})
	}
}
