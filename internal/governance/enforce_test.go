package governance

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

func TestEnforceDeniedRead(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":%q}}`, h.root+"/src/../.env")
	resp := h.nextAtAgent()
	if resp["id"] != float64(7) || get(resp, "error", "code") != float64(acpwire.CodeInvalidRequest) {
		t.Fatalf("agent got %v, want an error response to id 7", resp)
	}
	if msg, _ := get(resp, "error", "message").(string); !strings.Contains(msg, ".env") {
		t.Errorf("error message %q does not say what was denied", msg)
	}
	note := h.nextAtIDE()
	if text, _ := get(note, "params", "update", "content", "text").(string); !strings.Contains(text, "blocked reading") {
		t.Errorf("IDE got %v, want a visible message about the blocked read", note)
	}
	h.marker()
	evs := h.rec.find("fs.read", "deny")
	if len(evs) != 1 || !evs[0].sync || !strings.Contains(evs[0].ev.Metadata["rule"].(string), "Read(**/.env)") {
		t.Fatalf("audit fs.read deny records = %+v, want one synced record naming the rule", evs)
	}

	// An allowed read reaches the IDE untouched.
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":8,"method":"fs/read_text_file","params":{"sessionId":"s1","path":%q}}`, h.root+"/src/a.go")
	h.agent("%s", line)
	got := h.ClientGets()
	if got != line {
		t.Errorf("allowed read forwarded as %s, want the original bytes %s", got, line)
	}
}

func permissionRequest(id int, call, kind, input string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":%q,"title":"run","kind":%q,"rawInput":%s},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"always","name":"Always","kind":"allow_always"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`, id, call, kind, input)
}

func TestEnforcePermission(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		outcome string // optionId the agent gets, "" = forwarded to the IDE
		dec     string
	}{
		{"denied command", `{"command":"ls && curl http://x"}`, "no", "deny"},
		{"allowed command", `{"command":"npm run test"}`, "yes", "allow"},
		{"substituted denied command", `{"command":"echo $(git push)"}`, "no", "deny"},
		{"ask command goes to the IDE", `{"command":"git commit -m x"}`, "", "require-approval"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			h.agent("%s", permissionRequest(20, fmt.Sprintf("c%d", i), "execute", tt.input))
			if tt.outcome == "" {
				m := h.nextAtIDE()
				if m["method"] != "session/request_permission" {
					t.Fatalf("IDE got %v, want the permission request", m)
				}
			} else {
				m := h.nextAtAgent()
				if m["id"] != float64(20) || get(m, "result", "outcome", "optionId") != tt.outcome {
					t.Fatalf("agent got %v, want option %q selected", m, tt.outcome)
				}
			}
			evs := h.rec.find("tool.call", tt.dec)
			if len(evs) != 1 || !evs[0].sync {
				t.Fatalf("audit tool.call %s records: %+v", tt.dec, evs)
			}
		})
	}
}

func TestEnforceApprovalRecorded(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent("%s", permissionRequest(30, "c9", "execute", `{"command":"git commit -m wip"}`))
	h.approve(30)
	evs := h.rec.find("approval.recorded", "require-approval")
	if len(evs) != 1 || !evs[0].sync {
		t.Fatalf("approval records: %+v", evs)
	}
	ev := evs[0].ev
	if ev.Actor.ID != "user:ide" {
		t.Errorf("approval actor = %v, want user:ide", ev.Actor)
	}
	mir, _ := ev.Metadata["toolCall"].(audit.ToolCall)
	if mir.Approval != "user:ide (allow_once yes)" || mir.ToolCallID != "c9" || mir.Session != "s1" {
		t.Errorf("tool-call mirror = %+v, want approval by user:ide with allow_once", mir)
	}
	// The final state carries the approver.
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c9","status":"completed","rawOutput":{"stdout":"ok"}}}}`)
	h.nextAtIDE()
	var final *audit.ToolCall
	for _, r := range h.rec.find("tool.call", "") {
		if m, ok := r.ev.Metadata["toolCall"].(audit.ToolCall); ok && m.Result != nil {
			final = &m
		}
	}
	if final == nil || final.Approval != "user:ide (allow_once yes)" {
		t.Fatalf("final tool.call record = %+v, want the result with the approver", final)
	}
}

func TestEnforceCancelAnswersHeldPermissions(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent("%s", permissionRequest(40, "c1", "execute", `{"command":"git commit -m x"}`))
	h.nextAtIDE()
	h.ide(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	var gotCancelled, gotNotification bool
	for i := 0; i < 2; i++ {
		m := h.nextAtAgent()
		switch {
		case m["id"] == float64(40) && get(m, "result", "outcome", "outcome") == "cancelled":
			gotCancelled = true
		case m["method"] == "session/cancel":
			gotNotification = true
		}
	}
	if !gotCancelled || !gotNotification {
		t.Fatalf("agent got cancelled answer %v, session/cancel %v", gotCancelled, gotNotification)
	}
	// The IDE's own late answer is dropped: the agent saw exactly one.
	h.ide(`{"jsonrpc":"2.0","id":40,"result":{"outcome":{"outcome":"cancelled"}}}`)
	h.ide(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	if m := h.nextAtAgent(); m["method"] != "session/cancel" {
		t.Fatalf("agent got %v, want only the second session/cancel", m)
	}
}

func TestEnforceUnauthorizedToolCall(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read .env","kind":"read","status":"pending","locations":[{"path":%q}],"rawInput":{"file_path":%q},"_meta":{"claudeCode":{"toolName":"Read"}}}}}`, h.root+"/.env", h.root+"/.env")
	if m := h.nextAtAgent(); m["method"] != "session/cancel" || get(m, "params", "sessionId") != "s1" {
		t.Fatalf("agent got %v, want session/cancel", m)
	}
	note := h.nextAtIDE()
	text, _ := get(note, "params", "update", "content", "text").(string)
	if get(note, "params", "update", "sessionUpdate") != "agent_message_chunk" || !strings.Contains(text, "Read(**/.env)") {
		t.Fatalf("IDE got %v, want a visible message naming the rule", note)
	}
	// Later updates of the blocked call never reach the IDE.
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"SECRET=1"}}]}}}`)
	h.marker()
	v := h.rec.find("policy.violation", "deny")
	if len(v) != 1 || !v[0].sync {
		t.Fatalf("violation records: %+v", v)
	}
	// A permission request for the same call is refused.
	h.agent("%s", permissionRequest(50, "t1", "read", `{}`))
	if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "no" {
		t.Fatalf("agent got %v, want reject", m)
	}
}

func TestEnforceToolCallInputArrivesLater(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t2","title":"Terminal","kind":"execute","status":"pending","rawInput":{}}}}`)
	if m := h.nextAtIDE(); get(m, "params", "update", "toolCallId") != "t2" {
		t.Fatalf("IDE got %v, want the tool_call (nothing known yet)", m)
	}
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t2","rawInput":{"command":"FOO=1 curl http://x"}}}}`)
	if m := h.nextAtAgent(); m["method"] != "session/cancel" {
		t.Fatalf("agent got %v, want session/cancel", m)
	}
	if m := h.nextAtIDE(); get(m, "params", "update", "status") != "failed" {
		t.Fatalf("IDE got %v, want the call marked failed", m)
	}
	h.nextAtIDE() // the visible message
	h.marker()
	// Nothing says the call was allowed while its input was unknown.
	if allowed := h.rec.find("tool.call", "allow"); len(allowed) != 0 {
		t.Errorf("tool.call allow records for a call that was denied once its input came: %+v", allowed)
	}
	if v := h.rec.find("policy.violation", "deny"); len(v) != 1 {
		t.Errorf("violation records: %+v", v)
	}
}

// TestEnforceAllowRecordedWithInput: a call announced before its input is
// recorded as allowed once, with the input it was allowed with.
func TestEnforceAllowRecordedWithInput(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t3","title":"Read File","kind":"read","status":"pending","rawInput":{}}}}`)
	h.nextAtIDE()
	h.marker()
	if allowed := h.rec.find("tool.call", "allow"); len(allowed) != 0 {
		t.Fatalf("allowed before its input was known: %+v", allowed)
	}
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t3","rawInput":{"file_path":%q}}}}`, h.root+"/README.md")
	h.nextAtIDE()
	h.marker()
	allowed := h.rec.find("tool.call", "allow")
	if len(allowed) != 1 || !strings.Contains(fmt.Sprintf("%s", allowed[0].ev.Input), "README.md") {
		t.Fatalf("allow records: %+v, want one carrying the input", allowed)
	}
}

func TestEnforceLoadReplayIsNotEnforced(t *testing.T) {
	h := newHarness(t, EnforceOptions{})
	h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"old","cwd":%q,"mcpServers":[]}}`, h.root)
	h.nextAtAgent()
	replayed := fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"old","update":{"sessionUpdate":"tool_call","toolCallId":"r1","title":"Read","kind":"read","status":"completed","rawInput":{"file_path":%q}}}}`, h.root+"/.env")
	h.agent("%s", replayed)
	got := h.ClientGets()
	if got != replayed {
		t.Fatalf("replay forwarded as %s", got)
	}
	h.agent(`{"jsonrpc":"2.0","id":2,"result":{}}`)
	h.nextAtIDE()
	if v := h.rec.find("policy.violation", ""); len(v) != 0 {
		t.Fatalf("replay enforced: %+v", v)
	}
	replays := 0
	for _, r := range h.rec.find("tool.call", "") {
		if r.ev.Metadata["replay"] == true {
			replays++
		}
	}
	if replays != 1 {
		t.Fatalf("replay records = %d, want 1", replays)
	}
	// After the load, the same call is a new execution and is enforced.
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"old","update":{"sessionUpdate":"tool_call","toolCallId":"r2","title":"Read","kind":"read","status":"pending","rawInput":{"file_path":%q}}}}`, h.root+"/.env")
	if m := h.nextAtAgent(); m["method"] != "session/cancel" {
		t.Fatalf("agent got %v, want session/cancel", m)
	}
}

func TestEnforceSessionRoots(t *testing.T) {
	h := newHarness(t, EnforceOptions{})
	for _, tt := range []struct {
		name, params string
		refused      bool
	}{
		{"cwd in root", fmt.Sprintf(`{"cwd":%q,"mcpServers":[]}`, h.root+"/src"), false},
		{"cwd outside", `{"cwd":"/","mcpServers":[]}`, true},
		{"dotdot outside", fmt.Sprintf(`{"cwd":%q,"mcpServers":[]}`, h.root+"/.."), true},
		{"extra dir outside", fmt.Sprintf(`{"cwd":%q,"additionalDirectories":["/etc"],"mcpServers":[]}`, h.root), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h.ide(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":%s}`, tt.params)
			if tt.refused {
				m := h.nextAtIDE()
				if get(m, "error", "code") != float64(acpwire.CodeInvalidParams) {
					t.Fatalf("IDE got %v, want invalid params", m)
				}
				return
			}
			h.nextAtAgent()
			h.agent(`{"jsonrpc":"2.0","id":3,"result":{"sessionId":"sx"}}`)
			h.nextAtIDE()
		})
	}
}

func TestEnforceAuditFailClosed(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.rec.setHealthy(errors.New("disk full"))
	h.agent("%s", permissionRequest(60, "c1", "execute", `{"command":"npm run test"}`))
	if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "no" {
		t.Fatalf("agent got %v, want reject while the audit log is down", m)
	}
	h.nextAtIDE() // visible message
	h.agent(`{"jsonrpc":"2.0","id":61,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"x"}}`, h.root+"/src/b.go")
	if m := h.nextAtAgent(); m["error"] == nil {
		t.Fatalf("agent got %v, want the write refused", m)
	}
	h.nextAtIDE()
	// It recovers.
	h.rec.setHealthy(nil)
	h.agent("%s", permissionRequest(62, "c2", "execute", `{"command":"npm run test"}`))
	if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "yes" {
		t.Fatalf("agent got %v, want allow after recovery", m)
	}
}

func TestEnforceAuditFailOpen(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{FailOpen: true})
	h.rec.setHealthy(errors.New("disk full"))
	h.agent("%s", permissionRequest(60, "c1", "execute", `{"command":"npm run test"}`))
	if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "yes" {
		t.Fatalf("agent got %v, want allow with --audit-fail open", m)
	}
}

func TestEnforceWriteNeedsApproval(t *testing.T) {
	for _, answer := range []string{"allow", "reject"} {
		t.Run(answer, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			h.agent(`{"jsonrpc":"2.0","id":70,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"hi"}}`, h.root+"/README.md")
			ask := h.nextAtIDE()
			if ask["method"] != "session/request_permission" || get(ask, "params", "toolCall", "kind") != "edit" {
				t.Fatalf("IDE got %v, want the bridge's own permission request", ask)
			}
			id, _ := json.Marshal(ask["id"])
			h.ide(`{"jsonrpc":"2.0","id":%s,"result":{"outcome":{"outcome":"selected","optionId":%q}}}`, id, answer)
			if answer == "allow" {
				if m := h.nextAtIDE(); m["method"] != "fs/write_text_file" {
					t.Fatalf("IDE got %v, want the approved write", m)
				}
			} else if m := h.nextAtAgent(); m["id"] != float64(70) || m["error"] == nil {
				t.Fatalf("agent got %v, want the write refused", m)
			}
			evs := h.rec.find("approval.recorded", "require-approval")
			if len(evs) != 1 || evs[0].ev.Output.(map[string]any)["approved"] != (answer == "allow") {
				t.Fatalf("approval records: %+v", evs)
			}
		})
	}
}

func TestEnforceDeniedTerminal(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","id":80,"method":"terminal/create","params":{"sessionId":"s1","command":"bash","args":["-c","ls; curl http://x"],"outputByteLimit":32000}}`)
	if m := h.nextAtAgent(); m["id"] != float64(80) || m["error"] == nil {
		t.Fatalf("agent got %v, want an error", m)
	}
	h.nextAtIDE()
	h.marker()
	if evs := h.rec.find("terminal.create", "deny"); len(evs) != 1 {
		t.Fatalf("terminal records: %+v", evs)
	}
}

func TestEnforceRefusesGovernedBatches(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`[{"jsonrpc":"2.0","id":90,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/etc/passwd"}}]`)
	l := h.AgentGets()
	// The wire layer refuses every batch; the middleware refuses
	// those carrying governed methods if one ever reaches it.
	if !strings.Contains(l, `"id":90`) || !strings.Contains(l, `"error"`) {
		t.Fatalf("agent got %s, want an error response to id 90", l)
	}
	h.marker()
}

// TestEnforceEscapedToolCall: escaping the variant name in JSON does not
// get a denied tool call past the fast path.
func TestEnforceEscapedToolCall(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool\u005fcall","toolCallId":"e1","title":"x","kind":"execute","status":"pending","rawInput":{"command":"curl x"}}}}`)
	if m := h.nextAtAgent(); m["method"] != "session/cancel" {
		t.Fatalf("agent got %v, want session/cancel", m)
	}
	h.nextAtIDE()
	h.marker()
}

// TestEnforceAuditOnly: with no policy the middleware records but decides
// nothing: permission requests go to the person, reads pass, and the
// approval is still recorded.
func TestEnforceAuditOnly(t *testing.T) {
	h := newHarnessWith(t, EnforceOptions{}, false)
	h.openSession()
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":%q}}`, h.root+"/.env")
	h.agent("%s", line)
	if m := h.nextAtIDE(); m["method"] != "fs/read_text_file" {
		t.Fatalf("IDE got %v, want the read (no policy)", m)
	}
	h.agent("%s", permissionRequest(8, "c1", "execute", `{"command":"curl x"}`))
	h.answer(8, "no")
	if evs := h.rec.find("approval.recorded", ""); len(evs) != 1 || evs[0].ev.Policy.Ref != "no-policy" {
		t.Fatalf("approval records: %+v", evs)
	}
	if evs := h.rec.find("fs.read", "allow"); len(evs) != 1 {
		t.Fatalf("fs.read records: %+v", evs)
	}
}

// TestEnforceCancelWhileAsking: the agent cancels a write the bridge is
// asking the person about; the bridge stops waiting at once (through
// Preempt) and answers the write -32800.
func TestEnforceCancelWhileAsking(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","id":71,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"hi"}}`, h.root+"/README.md")
	if ask := h.nextAtIDE(); ask["method"] != "session/request_permission" {
		t.Fatalf("IDE got %v", ask)
	}
	h.agent(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":71}}`)
	m := h.nextAtAgent()
	if m["id"] != float64(71) || get(m, "error", "code") != float64(acpwire.CodeRequestCancelled) {
		t.Fatalf("agent got %v, want -32800 for id 71", m)
	}
	evs := h.rec.find("approval.recorded", "require-approval")
	if len(evs) != 1 || evs[0].ev.Output.(map[string]any)["approved"] != false {
		t.Fatalf("approval records: %+v", evs)
	}
}

// TestEnforceDuplicateKeys: a tool_call hidden behind an earlier duplicate
// "sessionUpdate" never reaches the IDE (a JavaScript IDE would read the
// last member); the person is told instead; governance refusing it alone
// is TestEnforceReadsWhatTheIDEReads.
func TestEnforceDuplicateKeys(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","toolCallId":"d1","title":"x","kind":"execute","status":"pending","rawInput":{"command":"curl x"},"sessionUpdate":"tool_call"}}}`)
	if m := h.nextAtIDE(); !strings.Contains(fmt.Sprint(get(m, "params", "update", "content", "text")), "acp-bridge refused") {
		t.Fatalf("IDE got %v, want the person told of the refusal", m)
	}
	h.marker()
}

// TestEnforceGeminiShellPermission: Gemini CLI asks for run_shell_command
// with no rawInput, the command line as the title and no prior tool_call.
func TestEnforceGeminiShellPermission(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"proceed_always","name":"Allow for this session","kind":"allow_always"},{"optionId":"proceed_once","name":"Allow","kind":"allow_once"},{"optionId":"cancel","name":"Reject","kind":"reject_once"}],"toolCall":{"toolCallId":"run_shell_command_1","status":"pending","title":"curl -s http://127.0.0.1:9/ > curl-ran.txt","content":[{"type":"content","content":{"type":"text","text":"[current working directory /w] (Run curl -s http://127.0.0.1:9/ > curl-ran.txt)"}}],"locations":[],"kind":"execute"}}}`)
	if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "cancel" {
		t.Fatalf("agent got %v, want the reject_once option", m)
	}
}

// TestEnforceLeavesDeniedCallsToTheAgentHook: with the agent's pre-tool
// hook in use, a denied tool_call is hidden but the turn goes on; if the
// call completes anyway, the turn is cancelled then.
func TestEnforceLeavesDeniedCallsToTheAgentHook(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{AgentHook: func() bool { return true }})
	call := func(id string) {
		h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":%q,"title":"Read .env","kind":"read","status":"pending","rawInput":{"file_path":%q},"_meta":{"claudeCode":{"toolName":"Read"}}}}}`, id, h.root+"/.env")
	}
	call("h1")
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"h1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"denied by hook"}}]}}}`)
	h.marker() // nothing of h1 reached the IDE
	h.AgentGetsNothingMore()
	if evs := h.rec.find("tool.call", "deny"); len(evs) != 1 || !evs[0].sync {
		t.Fatalf("deny records: %+v", evs)
	}
	// The hook did not stop it: the bridge does.
	call("h2")
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"h2","status":"completed","content":[{"type":"content","content":{"type":"text","text":"SECRET"}}]}}}`)
	if m := h.nextAtAgent(); m["method"] != "session/cancel" {
		t.Fatalf("agent got %v, want session/cancel", m)
	}
	if text, _ := get(h.nextAtIDE(), "params", "update", "content", "text").(string); !strings.Contains(text, "blocked") {
		t.Fatalf("IDE got %q, want the visible message", text)
	}
	h.marker()
}

// TestEnforceHookModeStopsCallsThatRun: with the agent's hook in use, a
// hidden call the agent then reports running, or completed, was not
// refused by the hook: the turn is stopped as without a hook.
func TestEnforceHookModeStopsCallsThatRun(t *testing.T) {
	for _, status := range []string{"in_progress", "completed"} {
		t.Run(status, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{AgentHook: func() bool { return true }})
			h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"h1","title":"Read .env","kind":"read","status":"pending","rawInput":{"file_path":%q},"_meta":{"claudeCode":{"toolName":"Read"}}}}}`, h.root+"/.env")
			h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"h1","status":%q}}}`, status)
			if m := h.nextAtAgent(); m["method"] != "session/cancel" {
				t.Fatalf("agent got %v, want session/cancel", m)
			}
			if text, _ := get(h.nextAtIDE(), "params", "update", "content", "text").(string); !strings.Contains(text, "blocked") {
				t.Fatalf("IDE got %q, want the visible message", text)
			}
			h.marker()
		})
	}
}
