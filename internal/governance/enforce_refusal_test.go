package governance

import (
	"errors"
	"testing"
)

// TestEnforceRefusedCallIsNoViolation: a call the policy wants approved,
// refused by the person, that the agent reports failed with nothing
// showing it ran is recorded as tool.refused naming the refusal's record,
// not as "the tool ran without the approval the policy requires". The
// messages are claude-agent-acp's for a refused Bash (tool_call with
// rawInput {}, the update with the input, the permission request, then
// "failed" with "User refused permission to run tool"). Whatever shows
// the call ran after the refusal keeps the violation, and so does a call
// nobody refused.
func TestEnforceRefusedCallIsNoViolation(t *testing.T) {
	const (
		failed    = `"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","status":"failed","rawOutput":"User refused permission to run tool","content":[{"type":"content","content":{"type":"text","text":"User refused permission to run tool"}}]`
		completed = `"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","status":"completed","rawOutput":"done"`
		running   = `"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","status":"in_progress"`
		diffed    = `"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","status":"failed","content":[{"type":"diff","path":"%[1]s/src/a.go","oldText":"a","newText":"b"}]`
		changed   = `"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","rawInput":{"command":"git commit -am all"}`
	)
	tests := []struct {
		name string
		// answer is what the person does with the permission request:
		// an optionId, "cancel" (session/cancel), or "" (never asked).
		answer string
		// terminal has the agent run an allowed terminal after the answer.
		terminal bool
		after    []string // updates after the answer, the last one ending the call
		refused  bool     // want tool.refused, else policy.violation
		// stops says the first update after the answer reports running a
		// refused call: the bridge stops the call and the turn, and drops
		// the updates after it.
		stops bool
	}{
		{"refused and reported failed", "no", false, []string{failed}, true, false},
		{"turn cancelled while asked, reported failed", "cancel", false, []string{failed}, true, false},
		{"refused and reported completed", "no", false, []string{completed}, false, true},
		{"refused, reported running, then failed", "no", false, []string{running, failed}, false, true},
		{"refused, a terminal let through, then failed", "no", true, []string{failed}, false, false},
		{"refused, failed with a diff", "no", false, []string{diffed}, false, false},
		{"refused, asked for something else, then failed", "no", false, []string{changed, failed}, false, false},
		{"never asked, reported failed", "", false, []string{failed}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call","toolCallId":"toolu_1","title":"Terminal","kind":"execute","status":"pending","rawInput":{},"content":[]`))
			h.wantForwarded("toolu_1")
			h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","title":"git commit -m x","kind":"execute","rawInput":{"command":"git commit -m x"}`))
			h.wantForwarded("toolu_1")
			refusalSeq := -1
			switch tt.answer {
			case "":
			case "cancel":
				h.agent("%s", permissionRequest(50, "toolu_1", "execute", `{"command":"git commit -m x"}`))
				if m := h.nextAtIDE(); m["method"] != "session/request_permission" {
					t.Fatalf("IDE got %v, want the permission request", m)
				}
				h.ide(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
				if m := h.nextAtAgent(); get(m, "result", "outcome", "outcome") != "cancelled" {
					t.Fatalf("agent got %v, want its request answered cancelled", m)
				}
				h.nextAtAgent() // the session/cancel
				refusalSeq = h.lastSeq("approval.recorded")
			default:
				h.agent("%s", permissionRequest(50, "toolu_1", "execute", `{"command":"git commit -m x"}`))
				h.answer(50, tt.answer)
				refusalSeq = h.lastSeq("approval.recorded")
			}
			if tt.terminal {
				h.agent(`{"jsonrpc":"2.0","id":60,"method":"terminal/create","params":{"sessionId":"s1","command":"npm run test","cwd":%q}}`, h.root)
				if m := h.nextAtIDE(); m["method"] != "terminal/create" {
					t.Fatalf("IDE got %v, want the allowed terminal/create", m)
				}
			}
			for i, u := range tt.after {
				h.agent("%s", toolUpdate(h.rooted(u)))
				switch {
				case tt.stops && i == 0:
					h.wantBlocked("toolu_1", true)
				case !tt.stops:
					h.wantForwarded("toolu_1")
				}
			}
			h.marker()
			violations, refused := h.rec.find("policy.violation", ""), h.rec.find("tool.refused", "require-approval")
			if tt.refused {
				if len(violations) != 0 || len(refused) != 1 {
					t.Fatalf("%d violations, %d tool.refused; want none and one: %+v", len(violations), len(refused), violations)
				}
				r, _ := refused[0].ev.Metadata["refusal"].(map[string]any)
				if r == nil || r["seq"] != int64(refusalSeq) || r["permissionRequest"] != "50" {
					t.Errorf("tool.refused names refusal %v, want seq %d of request 50", r, refusalSeq)
				}
				return
			}
			if len(violations) != 1 || len(refused) != 0 {
				t.Fatalf("%d violations, %d tool.refused; want one and none", len(violations), len(refused))
			}
			if tt.stops {
				if v := violations[0].ev.Metadata["violation"]; v != violationRefused {
					t.Errorf("the violation says %q, want %q", v, violationRefused)
				}
				return
			}
			if tt.answer != "" && violations[0].ev.Metadata["ranAfterRefusal"] == nil {
				t.Errorf("the violation does not say what showed the call ran after the refusal: %v", violations[0].ev.Metadata)
			}
		})
	}
}

// lastSeq is the seq (index) of the last record with action.
func (h *harness) lastSeq(action string) int {
	h.t.Helper()
	h.rec.mu.Lock()
	defer h.rec.mu.Unlock()
	for i := len(h.rec.events) - 1; i >= 0; i-- {
		if h.rec.events[i].ev.Action == action {
			return i
		}
	}
	h.t.Fatalf("no %s record", action)
	return -1
}

// TestEnforceDeniedPermissionThenRun: the bridge refused a call's
// permission (the policy denies it) and the agent reports the call
// running or completed all the same. The log held only tool.call records
// with the deny decision, which read as a call the bridge stopped, and the
// IDE was shown the call completed. The bridge records the violation,
// tells the IDE the call failed, stops the turn, and drops the rest of it.
func TestEnforceDeniedPermissionThenRun(t *testing.T) {
	for _, status := range []string{"in_progress", "completed"} {
		t.Run(status, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call","toolCallId":"d1","title":"Terminal","kind":"execute","status":"pending","rawInput":{}`))
			h.wantForwarded("d1")
			h.agent("%s", permissionRequest(50, "d1", "execute", `{"command":"ls && curl http://x"}`))
			if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "no" {
				t.Fatalf("agent got %v, want the bridge's refusal", m)
			}
			h.nextAtIDE() // the bridge tells the person it refused
			h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"d1","status":%q,"rawOutput":"ran anyway"`, status))
			h.wantBlocked("d1", true)
			h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"d1","status":"completed","rawOutput":"ran anyway"`))
			h.marker()
			v := h.rec.find("policy.violation", "deny")
			if len(v) != 1 || v[0].ev.Metadata["violation"] != violationRefused || !v[0].sync {
				t.Fatalf("violations %+v, want one saying %q, written before it took effect", v, violationRefused)
			}
		})
	}
}

// TestEnforceUnrecordedApprovalRefuses: the person approves, the log
// cannot record the answer, and the bridge refuses the agent instead; the
// approval then stood for the call all the same, so an agent that ran it
// and reported it completed was shown to the IDE as completed, and its
// record said the person approved it. The call counts as refused by the
// bridge: the run is stopped and recorded as a violation.
func TestEnforceUnrecordedApprovalRefuses(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call","toolCallId":"a1","title":"Terminal","kind":"execute","status":"pending","rawInput":{}`))
	h.wantForwarded("a1")
	h.agent("%s", permissionRequest(50, "a1", "execute", `{"command":"git commit -m x"}`))
	if m := h.nextAtIDE(); m["method"] != "session/request_permission" {
		t.Fatalf("IDE got %v, want the permission request", m)
	}
	h.rec.setHealthy(errors.New("disk full"))
	h.ide(`{"jsonrpc":"2.0","id":50,"result":{"outcome":{"outcome":"selected","optionId":"yes"}}}`)
	if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "no" {
		t.Fatalf("agent got %v, want a refusal: the answer was not recorded", m)
	}
	h.rec.setHealthy(nil)
	h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"a1","status":"completed","rawOutput":"ran"`))
	h.wantBlocked("a1", true)
	v := h.rec.find("policy.violation", "require-approval")
	if len(v) != 1 || v[0].ev.Metadata["violation"] != violationRefused {
		t.Fatalf("violations %+v, want one saying %q", v, violationRefused)
	}
}
