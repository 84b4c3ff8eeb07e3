package adapter

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/compress"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// TestHookRecordsNameTheIDESession: after compression rolled session A
// over to the fresh agent session D, Claude's hook names D, a session the
// IDE never opened. The hook's audit record and the Tier 1 event of a read
// it limited must name A, as every other record of A's work does, or
// "audit sessions" lists a session nobody opened and "audit show --session
// A" leaves out A's decisions since the rollover; the agent's own id is
// kept beside it.
func TestHookRecordsNameTheIDESession(t *testing.T) {
	e, enf, p, wsA, _ := rolledOver(t)
	if err := os.MkdirAll(wsA, 0o755); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(wsA, "big.log")
	var text strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&text, "line %d of the import log, nothing to see here\n", i)
	}
	if err := os.WriteFile(big, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	o := OptionsFrom(&acpwire.AgentCommand{Path: "claude-agent-acp"}, &governance.Setup{Policy: e.Policy(), Engine: e, Enforcer: enf}, p, nil)
	rec := &memRecorder{}
	o.Config.Audit = rec
	d := hookDecider(o)
	read := ToolCall{Agent: Claude, Tool: "Read", SessionID: "D", Cwd: wsA, ToolUseID: "toolu_1", Input: []byte(fmt.Sprintf(`{"file_path":%q}`, big))}
	if _, err := d.DecideTool(t.Context(), read); err != nil {
		t.Fatal(err)
	}
	if len(rec.events) != 1 {
		t.Fatalf("%d audit records, want 1", len(rec.events))
	}
	ev := rec.events[0]
	if got := ev.Metadata["session"]; got != "A" {
		t.Errorf("the hook's record names session %v, want the IDE's A", got)
	}
	if got := ev.Metadata["agentSession"]; got != "D" {
		t.Errorf("the hook's record names the agent's session as %v, want D", got)
	}
	if tc, ok := ev.Metadata["toolCall"].(audit.ToolCall); !ok || tc.Session != "A" {
		t.Errorf("the tool-call mirror %+v names another session than the IDE's A", ev.Metadata["toolCall"])
	}
	var tier1 []compress.Event
	for _, sid := range []string{"A", "D"} {
		for _, ev := range p.Events().Recent(sid, 10) {
			if ev.Type == compress.EventTier1 {
				tier1 = append(tier1, ev)
			}
		}
	}
	if len(tier1) != 1 || tier1[0].Session != "A" {
		t.Errorf("Tier 1 events of the limited read: %+v, want one in the IDE's session A", tier1)
	}
}
