package adapter

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// TestPolicyDeciderMode holds a call the policy sends to the person to
// the session's permission mode: Ask only lets Claude Code ask, and in
// bypassPermissions it runs the call unasked (claude-agent-acp's
// canUseTool allows it without asking the client), in auto a classifier
// may approve it. Only the modes known to ask keep Ask; the stricter of
// the hook payload's permission_mode and the mode seen on the wire counts.
func TestPolicyDeciderMode(t *testing.T) {
	e, dir := loadTestEngine(t)
	const glob = `{"pattern":"*.go"}`
	rows := []struct {
		name, tool, input, payload, wire string
		want                             Verdict
		ref                              string // PolicyRef, when it is not the policy's
	}{
		{"default asks", "Bash", askedPush, "default", noMode, Ask, ""},
		{"acceptEdits asks", "Bash", askedPush, "acceptEdits", noMode, Ask, ""},
		{"plan asks", "Bash", askedPush, "plan", noMode, Ask, ""},
		{"dontAsk refuses what it would ask", "Bash", askedPush, "dontAsk", noMode, Ask, ""},
		{"bypassPermissions does not ask", "Bash", askedPush, "bypassPermissions", noMode, Deny, "mode-does-not-ask"},
		{"auto lets a classifier approve", "Bash", askedPush, "auto", noMode, Deny, "mode-does-not-ask"},
		{"an unknown mode is not known to ask", "Bash", askedPush, "yolo", noMode, Deny, "mode-does-not-ask"},
		{"a mode differing in case is another mode", "Bash", askedPush, "Default", noMode, Deny, "mode-does-not-ask"},
		{"the wire's bypass is stricter than the payload's default", "Bash", askedPush, "default", "bypassPermissions", Deny, "mode-does-not-ask"},
		{"the payload's bypass is stricter than the wire's default", "Bash", askedPush, "bypassPermissions", "default", Deny, "mode-does-not-ask"},
		{"the wire's mode alone", "Bash", askedPush, noMode, "auto", Deny, "mode-does-not-ask"},
		{"the wire's mode unreadable", "Bash", askedPush, noMode, "(unreadable)", Deny, "mode-does-not-ask"},
		{"the wire's default alone asks", "Bash", askedPush, noMode, "default", Ask, ""},
		{"neither known keeps ask", "Bash", askedPush, noMode, noMode, Ask, ""},
		{"an allowed call in bypass is allowed", "Glob", glob, "bypassPermissions", "bypassPermissions", Allow, ""},
		{"a denied call in bypass is denied by its rule", "Bash", deniedRm, "bypassPermissions", noMode, Deny, ""},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, asked := decideInMode(t, e, dir, r.tool, r.input, r.payload, r.wire, r.want)
			if r.ref != "" && (got.PolicyRef != r.ref || got.PolicyDecision != "deny" || got.Rule == "") {
				t.Errorf("policy ref %q, decision %q, rule %q: want %q, deny and the rule that asked", got.PolicyRef, got.PolicyDecision, got.Rule, r.ref)
			}
			if r.ref == "" && got.PolicyRef == "mode-does-not-ask" {
				t.Errorf("policy ref %q for a call the mode does not decide", got.PolicyRef)
			}
			for _, sid := range asked {
				if sid != "s1" {
					t.Errorf("the wire's mode was looked up for session %q, want s1", sid)
				}
			}
		})
	}
}

// The Bash inputs the mode tests decide: one the test policy asks about
// and one it denies; noMode is the mode of a payload or wire that names none.
const (
	askedPush = `{"command":"git push origin main"}`
	deniedRm  = `{"command":"rm -rf build"}`
	noMode    = ""
)

// decideInMode has PolicyDeciderIn(e) decide Claude's call of tool with
// input in session s1 (cwd dir), the hook payload naming the mode payload
// and the wire the mode wire, and fails unless the verdict is want. It
// returns the decision and the sessions the wire's mode was looked up for.
func decideInMode(t *testing.T, e *governance.Engine, dir, tool, input, payload, wire string, want Verdict) (Decision, []string) {
	t.Helper()
	var asked []string
	d := PolicyDeciderIn(e, Sessions{Mode: func(sid string) string {
		asked = append(asked, sid)
		return wire
	}})
	call := ToolCall{Agent: Claude, Tool: tool, Input: json.RawMessage(input), Cwd: dir, SessionID: "s1", ToolUseID: "t1", Mode: payload}
	got, err := d.DecideTool(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if got.Verdict != want {
		t.Fatalf("verdict = %q (%s), want %q", got.Verdict, got.Reason, want)
	}
	return got, asked
}

// TestPolicyDeciderModeReason: the person reads why the call was not
// asked about, and what to do to be asked.
func TestPolicyDeciderModeReason(t *testing.T) {
	e, dir := loadTestEngine(t)
	call := func(mode string) ToolCall {
		return ToolCall{Agent: Claude, Tool: "Bash", Input: json.RawMessage(askedPush), Cwd: dir, SessionID: "s1", Mode: mode}
	}
	for mode, want := range map[string]string{
		"bypassPermissions": "in Claude's bypassPermissions mode Claude Code runs it without asking",
		"auto":              "in Claude's auto mode a model classifier, not the person, may approve it",
		"yolo\u202e":        `Claude's mode "yolo\u202e" is not one known to ask the person`,
	} {
		got, err := PolicyDecider(e).DecideTool(context.Background(), call(mode))
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range []string{"acp-bridge policy: require-approval", "(rule: ", "needs the person's approval", want,
			"switch the session to a mode that asks (Default, Accept Edits) to be asked"} {
			if !strings.Contains(got.Reason, part) {
				t.Errorf("mode %q: reason %q lacks %q", mode, got.Reason, part)
			}
		}
	}
}

// TestPolicyDeciderModeAudited: the audit record of a call refused for
// its mode says so (policy ref mode-does-not-ask, decision deny).
func TestPolicyDeciderModeAudited(t *testing.T) {
	e, dir := loadTestEngine(t)
	rec := &memRecorder{}
	d := Audited(PolicyDecider(e), rec, AuditOptions{})
	call := ToolCall{Agent: Claude, Tool: "Bash", Input: json.RawMessage(askedPush), Cwd: dir, SessionID: "s1", ToolUseID: "t1", Mode: "bypassPermissions"}
	if _, err := d.DecideTool(context.Background(), call); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	evs := rec.events
	rec.mu.Unlock()
	if len(evs) != 1 {
		t.Fatalf("%d records, want 1", len(evs))
	}
	ev := evs[0]
	if ev.Policy == nil || ev.Policy.Ref != "mode-does-not-ask" || ev.Policy.Decision != "deny" {
		t.Fatalf("policy %+v, want ref mode-does-not-ask, decision deny", ev.Policy)
	}
	if r, _ := ev.Metadata["reason"].(string); !strings.Contains(r, "bypassPermissions") {
		t.Errorf("reason %q does not name the mode", r)
	}
}

// TestHookPayloadMode: the hook payload's permission_mode reaches the
// decider; a payload without one gives no mode, and one that is not a
// string is refused (the hook then denies).
func TestHookPayloadMode(t *testing.T) {
	call, _, err := parseHookEvent(HookRequest{Agent: Claude, Event: json.RawMessage(strings.Replace(realPayload, `"default"`, `"bypassPermissions"`, 1))})
	if err != nil || call.Mode != "bypassPermissions" {
		t.Fatalf("mode %q, err %v: want bypassPermissions", call.Mode, err)
	}
	call, _, err = parseHookEvent(HookRequest{Agent: Claude, Event: json.RawMessage(strings.Replace(realPayload, `"permission_mode":"default",`, ``, 1))})
	if err != nil || call.Mode != "" {
		t.Fatalf("without permission_mode: mode %q, err %v: want none", call.Mode, err)
	}
	if _, _, err = parseHookEvent(HookRequest{Agent: Claude, Event: json.RawMessage(strings.Replace(realPayload, `"default"`, `7`, 1))}); err == nil {
		t.Fatal("a permission_mode that is not a string was read")
	}
}

// TestOptionsFromSessions: the hook decides with the sessions the
// wire-level enforcement follows, their modes included.
func TestOptionsFromSessions(t *testing.T) {
	e, _ := loadTestEngine(t)
	g := &governance.Setup{Policy: e.Policy(), Engine: e, Enforcer: governance.NewEnforcer(governance.EnforceOptions{Engine: e})}
	o := OptionsFrom(&acpwire.AgentCommand{Path: "claude-agent-acp"}, g, nil, nil)
	if o.Sessions.Roots == nil || o.Sessions.Mode == nil {
		t.Fatalf("sessions %+v: want the enforcer's roots and modes", o.Sessions)
	}
}
