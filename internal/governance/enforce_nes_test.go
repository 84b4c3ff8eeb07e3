package governance

import (
	"strings"
	"testing"
)

// TestNextEditSuggestionsNotCarried takes the agent's next edit
// suggestions capability out of its initialize answer, in any case a Go
// IDE reads as "nes", so that the IDE never sends it the documents the
// person opens; and refuses an IDE's nes/* and document/* messages.
func TestNextEditSuggestionsNotCarried(t *testing.T) {
	for _, c := range []struct {
		name, caps string
		removed    []string // the members the IDE gets as null
	}{
		{"asked for", `{"nes":{"events":{"document":{"didOpen":{}}}}}`, []string{"nes"}},
		{"asked for in another case", `{"loadSession":true,"Nes":{"events":{}}}`, []string{"Nes"}},
		{"null", `{"nes":null}`, nil},
		{"not asked for", `{"loadSession":true}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarnessWith(t, EnforceOptions{}, true)
			h.ide(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
			h.nextAtAgent()
			answer := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":` + c.caps + `,"authMethods":[]}}`
			h.agent("%s", answer)
			line := h.ClientGets()
			m := h.decode(line, "IDE")
			for _, k := range c.removed {
				caps, _ := get(m, "result", "agentCapabilities").(map[string]any)
				if v, ok := caps[k]; !ok || v != nil {
					t.Errorf("the IDE got agentCapabilities.%s %v, want null: %s", k, v, line)
				}
			}
			if c.removed == nil && line != answer {
				t.Errorf("the IDE got %s, want the answer byte for byte", line)
			}
			if n := len(h.rec.find("agent.capability", "deny")); n != len(c.removed) {
				t.Errorf("%d agent.capability records, want %d", n, len(c.removed))
			}
		})
	}
	// Both spellings in one object: the wire layer refuses the answer.
	h := newHarnessWith(t, EnforceOptions{}, true)
	h.ide(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"nes":null,"NES":{}},"authMethods":[]}}`)
	if m := h.nextAtIDE(); m["error"] == nil {
		t.Errorf("the IDE got %v, want an error", m)
	}
	h = newHarnessWith(t, EnforceOptions{}, true)
	h.ide(`{"jsonrpc":"2.0","id":"n0","method":"nes/start","params":{"workspaceUri":"file:///w"}}`)
	if m := h.nextAtIDE(); !strings.Contains(get(m, "error", "message").(string), "next edit suggestions") {
		t.Errorf("nes/start answered %v, want the bridge's error", m)
	}
	h.ide(`{"jsonrpc":"2.0","method":"document/didOpen","params":{"sessionId":"nes-1","uri":"file:///w/.env","languageId":"plaintext","version":1,"text":"SECRET"}}`)
	h.openSession() // the next line the agent gets is session/new: the notification was dropped
	if n := len(h.rec.find("message.refused", "deny")); n != 2 {
		t.Errorf("%d message.refused records, want 2 (nes/start, document/didOpen)", n)
	}
}
