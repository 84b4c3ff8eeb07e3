package governance

import (
	"fmt"
	"slices"
	"testing"
)

// modeHarness opens session s1 with a session/new result whose
// modes.currentModeId is mode ("" for a result without modes).
func modeHarness(t *testing.T, mode string) *harness {
	t.Helper()
	h := newHarness(t, EnforceOptions{})
	h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, h.root)
	h.nextAtAgent()
	modes := ""
	if mode != "" {
		modes = `,"modes":{"currentModeId":"` + mode + `","availableModes":[{"id":"default","name":"Default"},{"id":"bypassPermissions","name":"Bypass Permissions"}]}`
	}
	h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"%s}}`, modes)
	h.nextAtIDE()
	return h
}

// modeUpdate is the agent's current_mode_update of session s1.
func modeUpdate(mode string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"` + mode + `"}}}`
}

// TestEnforcerModeOpened: a session's mode is the modes.currentModeId of
// the result that opened it; a result without modes gives none.
func TestEnforcerModeOpened(t *testing.T) {
	for _, mode := range []string{"default", "bypassPermissions", ""} {
		h := modeHarness(t, mode)
		if got := h.enf.Mode("s1"); got != mode {
			t.Errorf("opened in %q: Mode(s1) = %q", mode, got)
		}
		if got := h.enf.Mode("nobody"); got != "" {
			t.Errorf("Mode(nobody) = %q, want none", got)
		}
	}
	t.Run("resumed", func(t *testing.T) {
		h := newHarness(t, EnforceOptions{})
		h.ide(`{"jsonrpc":"2.0","id":4,"method":"session/resume","params":{"sessionId":"r1","cwd":%q,"mcpServers":[]}}`, h.root)
		h.nextAtAgent()
		h.agent(`{"jsonrpc":"2.0","id":4,"result":{"modes":{"currentModeId":"auto","availableModes":[]}}}`)
		h.nextAtIDE()
		if got := h.enf.Mode("r1"); got != "auto" {
			t.Errorf("Mode(r1) = %q, want auto", got)
		}
	})
	t.Run("modes without a mode", func(t *testing.T) {
		h := newHarness(t, EnforceOptions{})
		h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, h.root)
		h.nextAtAgent()
		h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","modes":{"currentModeId":7,"availableModes":[]}}}`)
		h.nextAtIDE()
		if got := h.enf.Mode("s1"); got != ModeUnreadable {
			t.Errorf("Mode(s1) = %q, want %q", got, ModeUnreadable)
		}
	})
}

// TestEnforcerModeSet: the IDE's session/set_mode sets the mode when the
// agent answers it without an error, not before, and not when it fails.
func TestEnforcerModeSet(t *testing.T) {
	h := modeHarness(t, "default")
	h.ide(`{"jsonrpc":"2.0","id":7,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"bypassPermissions"}}`)
	if m := h.nextAtAgent(); m["method"] != "session/set_mode" {
		t.Fatalf("agent got %v, want session/set_mode", m)
	}
	if got := h.enf.Mode("s1"); got != "default" {
		t.Errorf("before the answer: Mode(s1) = %q, want default", got)
	}
	h.agent(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	if m := h.nextAtIDE(); m["id"] != 7.0 {
		t.Fatalf("IDE got %v, want the set_mode answer", m)
	}
	if got := h.enf.Mode("s1"); got != "bypassPermissions" {
		t.Errorf("after the answer: Mode(s1) = %q, want bypassPermissions", got)
	}

	h.ide(`{"jsonrpc":"2.0","id":8,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"default"}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":8,"error":{"code":-32603,"message":"Mode default is not available in this session"}}`)
	h.nextAtIDE()
	if got := h.enf.Mode("s1"); got != "bypassPermissions" {
		t.Errorf("after a failed set_mode: Mode(s1) = %q, want bypassPermissions still", got)
	}

	// A set_mode the bridge cannot read as the agent would is refused.
	h.ide(`{"jsonrpc":"2.0","id":9,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"default","modeId":"bypassPermissions"}}`)
	if m := h.nextAtIDE(); m["id"] != 9.0 || m["error"] == nil {
		t.Fatalf("IDE got %v, want an error for the unreadable set_mode", m)
	}
	h.marker()
}

// TestEnforcerModeUpdate: the agent's current_mode_update sets the mode,
// read strictly; one the bridge cannot read makes the mode unreadable
// (never one known to ask). The update reaches the IDE as it came.
func TestEnforcerModeUpdate(t *testing.T) {
	rows := []struct {
		name, line, want string
	}{
		{"plain", modeUpdate("acceptEdits"), "acceptEdits"},
		{"to bypass", modeUpdate("bypassPermissions"), "bypassPermissions"},
		{"escaped variant", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_upd\u0061te","currentModeId":"bypassPermissions"}}}`, "bypassPermissions"},
		{"escaped mode", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"bypass\u0050ermissions"}}}`, "bypassPermissions"},
		{"no mode", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update"}}}`, ModeUnreadable},
		{"a number", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":1}}}`, ModeUnreadable},
		{"not a mode update", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\"current_mode_update\""}}}}`, "default"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			h := modeHarness(t, "default")
			h.agent("%s", r.line)
			if got := h.ClientGets(); got != r.line {
				t.Fatalf("IDE got %s, want the update as sent", got)
			}
			if got := h.enf.Mode("s1"); got != r.want {
				t.Errorf("Mode(s1) = %q, want %q", got, r.want)
			}
		})
	}
	// Read two ways (the IDE's JSON.parse keeps the last currentModeId;
	// Go's encoding/json matches CurrentModeId): refused by the wire
	// layer, which tells the person, and the mode is unreadable.
	for name, line := range map[string]string{
		"duplicate":  `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"default","currentModeId":"bypassPermissions"}}}`,
		"other case": `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"default","CurrentModeId":"bypassPermissions"}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			h := modeHarness(t, "default")
			h.agent("%s", line)
			if m := h.nextAtIDE(); get(m, "params", "update", "sessionUpdate") != "agent_message_chunk" {
				t.Fatalf("IDE got %v, want the bridge telling of the refusal", m)
			}
			h.marker()
			if got := h.enf.Mode("s1"); got != ModeUnreadable {
				t.Errorf("Mode(s1) = %q, want %q", got, ModeUnreadable)
			}
		})
	}
	// A session the bridge does not keep gets no mode from the agent.
	t.Run("unknown session", func(t *testing.T) {
		h := modeHarness(t, "default")
		h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"current_mode_update","currentModeId":"bypassPermissions"}}}`)
		h.marker()
		if got := h.enf.Mode("s2"); got != "" {
			t.Errorf("Mode(s2) = %q, want none", got)
		}
	})
}

// TestEnforcerModeUpdateLaxWire: with a wire layer that reads nothing
// strictly itself, the middleware's own strict reading makes a mode
// update read two ways unreadable.
func TestEnforcerModeUpdateLaxWire(t *testing.T) {
	h := newHarnessWire(t, EnforceOptions{}, true, laxWire)
	h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, h.root)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","modes":{"currentModeId":"default","availableModes":[]}}}`)
	h.nextAtIDE()
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"default","currentModeId":"bypassPermissions"}}}`)
	h.ClientGets() // not a tool call: forwarded
	if got := h.enf.Mode("s1"); got != ModeUnreadable {
		t.Errorf("Mode(s1) = %q, want %q", got, ModeUnreadable)
	}
	h.agent("%s", modeUpdate("plan"))
	h.ClientGets()
	if got := h.enf.Mode("s1"); got != "plan" {
		t.Errorf("Mode(s1) = %q, want plan", got)
	}
}

// TestEnforcerModeContinuedIn: the result of the session/new a compression
// rollover sends, which no middleware sees, gives the IDE's session the
// fresh agent session's mode; it keeps no session the IDE never opened.
func TestEnforcerModeContinuedIn(t *testing.T) {
	for _, tt := range []struct{ opened, result, want string }{
		{"default", `{"sessionId":"fresh","modes":{"currentModeId":"bypassPermissions","availableModes":[]}}`, "bypassPermissions"},
		// A fresh session showing no mode, where the session had one, is
		// in a mode the bridge does not know: the person answers.
		{"default", `{"sessionId":"fresh"}`, ModeUnreadable},
		{"default", `{"sessionId":"fresh","configOptions":[]}`, ModeUnreadable},
		// An agent that showed no mode before shows none after.
		{"", `{"sessionId":"fresh"}`, ""},
		{"default", `{"sessionId":"fresh","modes":{"currentModeId":7}}`, ModeUnreadable},
		{"default", `{"sessionId":"fresh","modes":{"currentModeId":"plan"},"modes":{"currentModeId":"bypassPermissions"}}`, ModeUnreadable},
	} {
		h := modeHarness(t, tt.opened)
		h.enf.ContinuedIn("s1", []byte(tt.result))
		if got := h.enf.Mode("s1"); got != tt.want {
			t.Errorf("continued in %s: Mode(s1) = %q, want %q", tt.result, got, tt.want)
		}
		h.enf.ContinuedIn("nobody", []byte(tt.result))
		if got := h.enf.Mode("nobody"); got != "" {
			t.Errorf("Mode(nobody) = %q, want none", got)
		}
	}
}

// configSet is the IDE's session/set_config_option of session s1.
func configSet(id int, configID, value string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/set_config_option","params":{"sessionId":"s1","configId":%q,"value":%s}}`, id, configID, value)
}

// modeOptions are configOptions with a mode option of that value, as
// codex-acp and claude-agent-acp show them.
func modeOptions(mode string) string {
	return `[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt","options":[]},` +
		`{"id":"mode","name":"Mode","category":"mode","type":"select","currentValue":"` + mode + `","options":[]}]`
}

// TestEnforcerModeConfigured: a session's mode is also its configuration
// option of the category "mode", which codex-acp takes from
// session/set_config_option without a current_mode_update: the mode the
// agent's answer shows (or, with no options shown, the value of the option
// "mode" set), the agent's config_option_update, and a result that opened
// the session with options and no modes. A refused set changes nothing; an
// option the bridge cannot read makes the mode unreadable; a request it
// cannot read is refused.
func TestEnforcerModeConfigured(t *testing.T) {
	h := modeHarness(t, "auto")
	steps := []struct {
		ide, agent, want string
	}{
		{configSet(7, "mode", `"read-only"`), `{"jsonrpc":"2.0","id":7,"result":{"configOptions":` + modeOptions("read-only") + `}}`, "read-only"},
		{configSet(8, "mode", `"auto"`), `{"jsonrpc":"2.0","id":8,"result":{}}`, "auto"},
		{configSet(9, "mode", `"full-access"`), `{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params"}}`, "auto"},
		// A model switch that moves the mode (claude-agent-acp on Haiku).
		{configSet(10, "model", `"haiku"`), `{"jsonrpc":"2.0","id":10,"result":{"configOptions":` + modeOptions("default") + `}}`, "default"},
		{configSet(11, "effort", `"high"`), `{"jsonrpc":"2.0","id":11,"result":{}}`, "default"},
		{`{"jsonrpc":"2.0","id":14,"method":"session/set_config_option","params":{"sessionId":"s1","type":"boolean","configId":"fast","value":true,"_meta":{"x":1}}}`,
			`{"jsonrpc":"2.0","id":14,"result":{}}`, "default"},
		{"", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":` + modeOptions("plan") + `}}}`, "plan"},
		{"", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":[{"id":"mode","currentValue":"auto"}]}}}`, "auto"},
		{"", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":[{"id":"x","category":7,"currentValue":"auto"}]}}}`, ModeUnreadable},
		{"", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":[{"id":"mode","currentValue":"auto"},{"id":"m2","category":"mode","currentValue":"auto"}]}}}`, "auto"},
		{"", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":[{"id":"mode","currentValue":"auto"},{"id":"m2","category":"mode","currentValue":"read-only"}]}}}`, ModeUnreadable},
		{"", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":` + modeOptions("auto") + `,"configOptions":[]}}}`, ModeUnreadable},
	}
	for i, s := range steps {
		if s.ide != "" {
			h.ide("%s", s.ide)
			h.nextAtAgent()
		}
		h.agent("%s", s.agent)
		h.nextAtIDE()
		if got := h.enf.Mode("s1"); got != s.want {
			t.Errorf("step %d: Mode(s1) = %q, want %q", i, got, s.want)
		}
	}
	h.ide("%s", `{"jsonrpc":"2.0","id":12,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"mode","value":"auto","value":"full-access"}}`)
	if m := h.nextAtIDE(); m["id"] != 12.0 || m["error"] == nil {
		t.Fatalf("IDE got %v, want an error for the unreadable set_config_option", m)
	}

	t.Run("opened with options", func(t *testing.T) {
		h := newHarness(t, EnforceOptions{})
		h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, h.root)
		h.nextAtAgent()
		h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","configOptions":%s}}`, modeOptions("read-only"))
		h.nextAtIDE()
		if got := h.enf.Mode("s1"); got != "read-only" {
			t.Errorf("Mode(s1) = %q, want read-only", got)
		}
	})
}

// TestEnforcerModeRecorded: each change of a session's mode is in the
// audit log (session.mode) with who made it and how: the person through
// the IDE (an answered session/set_mode or session/set_config_option),
// the agent (current_mode_update, config_option_update), the bridge (a
// rollover); the mode a session opened in is in its session.start. The
// agent's update to the mode the IDE's pending request asks for is the
// person's change. A mode set again, or a refused set, records nothing.
func TestEnforcerModeRecorded(t *testing.T) {
	h := modeHarness(t, "default")
	h.ide(`{"jsonrpc":"2.0","id":7,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"bypassPermissions"}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	h.nextAtIDE()
	h.ide("%s", configSet(8, "mode", `"bypassPermissions"`))
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":8,"result":{}}`)
	h.nextAtIDE()
	h.ide("%s", configSet(9, "mode", `"plan"`))
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"no"}}`)
	h.nextAtIDE()
	h.ide("%s", configSet(10, "mode", `"read-only"`))
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":10,"result":{"configOptions":%s}}`, modeOptions("read-only"))
	h.nextAtIDE()
	h.agent("%s", modeUpdate("default"))
	h.nextAtIDE()
	h.enf.ModeRestoredIn("s1", "plan")
	// claude-agent-acp shows the mode before it answers the request.
	h.ide(`{"jsonrpc":"2.0","id":11,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"acceptEdits"}}`)
	h.nextAtAgent()
	h.agent("%s", modeUpdate("acceptEdits"))
	h.nextAtIDE()
	h.agent(`{"jsonrpc":"2.0","id":11,"result":{}}`)
	h.nextAtIDE()
	// An option of another kind that shares a mode's name is not the
	// person asking for that mode.
	h.ide("%s", configSet(12, "model", `"default"`))
	h.nextAtAgent()
	h.agent("%s", modeUpdate("default"))
	h.nextAtIDE()
	h.agent(`{"jsonrpc":"2.0","id":12,"result":{}}`)
	h.nextAtIDE()
	got := modeRecords(h)
	want := []string{
		"user:ide default->bypassPermissions via session/set_mode",
		"user:ide bypassPermissions->read-only via session/set_config_option",
		h.enf.agent.ID + " read-only->default via current_mode_update",
		"acp-bridge default->plan via the session's mode, restored after a rollover",
		"user:ide plan->acceptEdits via session/set_mode, shown by the agent's current_mode_update before its answer",
		h.enf.agent.ID + " acceptEdits->default via current_mode_update",
	}
	if !slices.Equal(got, want) {
		t.Errorf("session.mode records:\n%q\nwant\n%q", got, want)
	}
	if st := h.rec.find("session.start", ""); len(st) != 1 || st[0].ev.Input.(map[string]any)["mode"] != "default" {
		t.Errorf("session.start records %+v, want one with mode default", st)
	}
}

// TestEnforcerModeRestoreRecorded: at a rollover the fresh agent session
// opens in the agent's default mode, and the bridge gives it the session's
// mode back past the middleware; the agent's update to that mode, which
// claude-agent-acp sends before its answer, is the bridge's restore in the
// audit log, not the agent's own change.
func TestEnforcerModeRestoreRecorded(t *testing.T) {
	h := modeHarness(t, "plan")
	h.enf.ContinuedIn("s1", []byte(`{"sessionId":"d1","modes":{"currentModeId":"default","availableModes":[]}}`))
	h.agent("%s", modeUpdate("plan"))
	h.nextAtIDE()
	h.enf.ModeRestoredIn("s1", "plan")
	got := modeRecords(h)
	want := []string{
		"acp-bridge plan->default via the fresh agent session a rollover opened",
		"acp-bridge default->plan via the session's mode, restored after a rollover, shown by the agent's current_mode_update before its answer",
	}
	if !slices.Equal(got, want) {
		t.Errorf("session.mode records:\n%q\nwant\n%q", got, want)
	}
}

// modeRecords returns the session.mode records of h's audit log as
// "ACTOR FROM->MODE via VIA".
func modeRecords(h *harness) []string {
	var out []string
	for _, e := range h.rec.find("session.mode", "") {
		in := e.ev.Input.(map[string]any)
		out = append(out, fmt.Sprintf("%s %v->%v via %v", e.ev.Actor.ID, in["from"], in["mode"], in["via"]))
	}
	return out
}

// TestModeAskedAnsweredInTheAgentsPlace: a session/set_mode whose answer
// the bridge refuses is answered with the bridge's error, and the IDE
// reads it as failed: the agent's later update to that mode is the
// agent's own change, never the person's.
func TestModeAskedAnsweredInTheAgentsPlace(t *testing.T) {
	h := modeHarness(t, "default")
	h.ide(`{"jsonrpc":"2.0","id":7,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"bypassPermissions"}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":-32603,"message":"x"}}`)
	if m := h.nextAtIDE(); m["id"] != float64(7) || m["error"] == nil {
		t.Fatalf("IDE got %v, want its session/set_mode failed", m)
	}
	h.agent("%s", modeUpdate("bypassPermissions"))
	h.nextAtIDE()
	want := []string{h.enf.agent.ID + " default->bypassPermissions via current_mode_update"}
	if got := modeRecords(h); !slices.Equal(got, want) {
		t.Errorf("session.mode records:\n%q\nwant\n%q", got, want)
	}
}
