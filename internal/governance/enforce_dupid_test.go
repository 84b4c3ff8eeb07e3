package governance

import "testing"

// TestEnforcePermissionReusedID: an agent that sends a second permission
// request under the id of one still waiting for the person must not have
// the person's answer to the first taken as an answer to the second. The
// IDE answers each request it got under that id, and the bridge cannot tell
// which answer is which: the second is refused, and the first keeps its
// own answer.
func TestEnforcePermissionReusedID(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent("%s", editPermission(40, "w-ok", h.root+"/README.md"))
	if m := h.nextAtIDE(); m["method"] != "session/request_permission" || get(m, "params", "toolCall", "toolCallId") != "w-ok" {
		t.Fatalf("IDE got %v, want the permission request for w-ok", m)
	}
	h.agent("%s", editPermission(40, "w-evil", h.root+"/evil.sh"))
	if m := h.nextAtAgent(); m["error"] == nil || m["id"] != float64(40) {
		t.Fatalf("agent got %v, want an error for the request reusing id 40", m)
	}
	h.ide(`{"jsonrpc":"2.0","id":40,"result":{"outcome":{"outcome":"selected","optionId":"yes"}}}`)
	if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "yes" {
		t.Fatalf("agent got %v, want the person's answer to w-ok", m)
	}
	// The write the evil call names was never approved: the bridge asks.
	h.agent(`{"jsonrpc":"2.0","id":41,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"hi"}}`, h.root+"/evil.sh")
	m := h.nextAtIDE()
	if m["method"] == "fs/write_text_file" {
		t.Fatalf("IDE got the write of evil.sh without a question: the answer to w-ok was taken for w-evil")
	}
	for _, ev := range h.rec.find("approval.recorded", "") {
		if mir, _ := ev.ev.Metadata["toolCall"].(map[string]any); mir != nil && mir["toolCallId"] == "w-evil" {
			t.Fatalf("approval recorded for w-evil, which the person never saw answered: %+v", ev.ev)
		}
	}
}
