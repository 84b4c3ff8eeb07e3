package governance

import (
	"fmt"
	"testing"
)

// TestPermissionInPlanModeGoesToThePerson: a permission request the policy
// allows is answered by the bridge only where the person's mode leaves it
// to the policy. In plan mode (and dontAsk, or a mode the bridge could not
// read) it reaches the IDE, recorded as needing approval; so does one
// about a call that changes the session's mode (ExitPlanMode, kind
// switch_mode), whose approval picks the mode the session goes on in. A
// call the policy denies is still refused by the bridge. The policy
// allows all but curl.
func TestPermissionInPlanModeGoesToThePerson(t *testing.T) {
	const (
		allowed = `{"command":"npm run test"}`
		denied  = `{"command":"ls && curl http://x"}`
	)
	exitPlan := func(id int, kind string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p1","title":"Ready to code?","kind":%q,"rawInput":{"plan":"npm run test"},"_meta":{"claudeCode":{"toolName":"ExitPlanMode"}}},"options":[{"optionId":"acceptEdits","name":"Yes, and auto-accept edits","kind":"allow_always"},{"optionId":"default","name":"Yes, and manually approve edits","kind":"allow_once"},{"optionId":"plan","name":"No, keep planning","kind":"reject_once"}]}}`, id, kind)
	}
	rows := []struct {
		name, mode, request string
		answer              string // the optionId the bridge answers; "" when the IDE is asked
		decision            string
	}{
		{"default mode: the policy answers", "default", permissionRequest(20, "c1", "execute", allowed), "yes", "allow"},
		{"no mode: the policy answers", "", permissionRequest(20, "c1", "execute", allowed), "yes", "allow"},
		{"plan mode: the person answers", "plan", permissionRequest(20, "c1", "execute", allowed), "", "require-approval"},
		{"dontAsk: the person answers", "dontAsk", permissionRequest(20, "c1", "execute", allowed), "", "require-approval"},
		{"unreadable mode: the person answers", ModeUnreadable, permissionRequest(20, "c1", "execute", allowed), "", "require-approval"},
		{"Gemini's autoEdit: the policy answers", "autoEdit", permissionRequest(20, "c1", "execute", allowed), "yes", "allow"},
		{"Codex's read-only: the person answers", "read-only", permissionRequest(20, "c1", "execute", allowed), "", "require-approval"},
		{"a mode the bridge does not know: the person answers", "architect", permissionRequest(20, "c1", "execute", allowed), "", "require-approval"},
		{"plan mode: a denied call is refused", "plan", permissionRequest(20, "c1", "execute", denied), "no", "deny"},
		{"leaving plan mode", "plan", exitPlan(20, "switch_mode"), "", "require-approval"},
		{"a mode switch in default mode", "default", exitPlan(20, "switch_mode"), "", "require-approval"},
		{"ExitPlanMode by its tool name", "default", exitPlan(20, "think"), "", "require-approval"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			root := t.TempDir()
			allowAll := NewEngine(testPolicy(t, "  default: allow\n  deny:\n    - Bash(curl:*)\n"), EngineOptions{Roots: []string{root}})
			h := newHarness(t, EnforceOptions{Engine: allowAll})
			h.root = root
			h.openSession()
			h.enf.setMode("s1", r.mode)
			h.agent("%s", r.request)
			if r.answer == "" {
				if m := h.nextAtIDE(); m["method"] != "session/request_permission" {
					t.Fatalf("IDE got %v, want the permission request", m)
				}
			} else if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != r.answer {
				t.Fatalf("agent got %v, want option %q selected", m, r.answer)
			}
			if evs := h.rec.find("tool.call", r.decision); len(evs) != 1 {
				t.Fatalf("audit tool.call %s records: %+v", r.decision, evs)
			}
		})
	}
}

// TestPermissionInConfiguredReadOnlyGoesToThePerson: the person set
// Codex's session to read-only through its configuration option
// (session/set_config_option, which codex-acp takes without a
// current_mode_update); a permission request the policy allows then
// reaches the person, as it does after session/set_mode.
func TestPermissionInConfiguredReadOnlyGoesToThePerson(t *testing.T) {
	root := t.TempDir()
	allowAll := NewEngine(testPolicy(t, "  default: allow\n"), EngineOptions{Roots: []string{root}})
	h := newHarness(t, EnforceOptions{Engine: allowAll})
	h.root = root
	h.openSession()
	h.enf.setMode("s1", "auto")
	h.ide("%s", configSet(7, "mode", `"read-only"`))
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":7,"result":{"configOptions":%s}}`, modeOptions("read-only"))
	h.nextAtIDE()
	h.agent("%s", permissionRequest(20, "c1", "execute", `{"command":"npm run test"}`))
	if m := h.nextAtIDE(); m["method"] != "session/request_permission" {
		t.Fatalf("IDE got %v, want the permission request: the person chose read-only", m)
	}
}
