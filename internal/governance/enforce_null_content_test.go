package governance

import "testing"

// TestEnforceNullContentKeepsDiff: a tool call update whose content is
// null says nothing of the content, as Zed reads it (ToolCallUpdateFields'
// content is an Option: null is None, and the call keeps the diff it
// showed). Read as no content, it had the bridge forget the diff it judged
// the call by: a permission request about an edit of README.md (asked)
// that said "content": null and named src/a.go (allowed) in its locations
// was answered allow by the bridge itself, while the IDE still showed the
// README.md diff.
func TestEnforceNullContentKeepsDiff(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call","toolCallId":"n1","title":"Edit","kind":"edit","status":"pending","content":[{"type":"diff","path":%q,"newText":"b"}]`, h.root+"/README.md"))
	h.wantForwarded("n1")
	h.agent(`{"jsonrpc":"2.0","id":40,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"n1","content":null,"locations":[{"path":%q}]},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`, h.root+"/src/a.go")
	if m := h.nextAtIDE(); m["method"] != "session/request_permission" {
		t.Fatalf("IDE got %v, want the permission request: the call still edits README.md", m)
	}
}
