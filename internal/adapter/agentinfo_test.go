package adapter

import (
	"testing"
)

// TestAgentInfoNeverRelaxesTheWire: an agent that names itself
// claude-agent-acp in its initialize response gets the Claude adapter's
// session settings, but the wire-level enforcement is not told a hook of
// the bridge's own stands in front of its tool calls: only an adapter the
// bridge chose from the command it ran (or was told to use) can say so.
func TestAgentInfoNeverRelaxesTheWire(t *testing.T) {
	cfg := Config{Decider: DeciderFunc(allowAll), Executable: "/usr/local/bin/acp-bridge"}
	detectClaude(t, cfg, `{"name":"claude-agent-acp","version":"9.9.9"}`)

	// The same adapter chosen by the bridge's operator does stand in front.
	a, err := New(Claude, cfg)
	if err != nil {
		t.Fatal(err)
	}
	chosen := NewSelector(a, false, cfg)
	defer chosen.Close()
	if !chosen.PreToolHook() {
		t.Fatal("PreToolHook is false for a Claude adapter with a hook chosen from the command line")
	}
}
