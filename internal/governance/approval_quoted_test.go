package governance

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// TestApprovalQuotesAgentOption: the approval a tool call's mirror records
// names the option the person chose, whose kind and id the agent wrote.
// An id that is not a plain token is quoted, so that it cannot read as
// the end of the approval and another approver after it.
func TestApprovalQuotesAgentOption(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	const id = "yes) approved by user:security-lead (allow_once ok"
	h.agent(`{"jsonrpc":"2.0","id":31,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c9","title":"run","kind":"execute","rawInput":{"command":"git commit -m wip"}},"options":[{"optionId":%q,"name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`, id)
	h.answer(31, id)
	evs := h.rec.find("approval.recorded", "require-approval")
	if len(evs) != 1 {
		t.Fatalf("approval records: %+v", evs)
	}
	mir, _ := evs[0].ev.Metadata["toolCall"].(audit.ToolCall)
	if want := `user:ide (allow_once "yes) approved by user:security-lead (allow_once ok")`; mir.Approval != want {
		t.Errorf("approval = %s, want %s", mir.Approval, want)
	}
}

// TestRefusalWithdrawsEarlierApproval: the agent asks again about a call
// the person approved, and the person refuses. The call's records after
// the refusal (the refusal itself, the call's end) carried the earlier
// approval, so the views showed "approved: user:ide" on the refusal's
// row and on the call; they carry none.
func TestRefusalWithdrawsEarlierApproval(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent("%s", permissionRequest(30, "c9", "execute", `{"command":"git commit -m wip"}`))
	h.approve(30)
	h.agent("%s", permissionRequest(31, "c9", "execute", `{"command":"git commit -m wip"}`))
	h.answer(31, "no")
	evs := h.rec.find("approval.recorded", "require-approval")
	if len(evs) != 2 {
		t.Fatalf("approval records: %+v", evs)
	}
	if mir, _ := evs[1].ev.Metadata["toolCall"].(audit.ToolCall); mir.Approval != "" {
		t.Errorf("the refusal's record carries the approval %q", mir.Approval)
	}
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c9","status":"failed"}}}`)
	h.nextAtIDE()
	for _, r := range h.rec.find("tool.call", "") {
		if m, ok := r.ev.Metadata["toolCall"].(audit.ToolCall); ok && m.Error != nil && m.Approval != "" {
			t.Errorf("the call's end after the refusal carries the approval %q", m.Approval)
		}
	}
}
