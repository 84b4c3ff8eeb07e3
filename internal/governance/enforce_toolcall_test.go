package governance

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// toolUpdate is a session/update of session s1 carrying update, a JSON object
// body without its braces.
func toolUpdate(body string, args ...any) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{`+body+`}}}`, args...)
}

// wantBlocked checks the bridge stopped a call the IDE already saw: the
// turn is cancelled, the IDE hears the call failed and why, and nothing
// else.
func (h *harness) wantBlocked(id string, seen bool) {
	h.t.Helper()
	if m := h.nextAtAgent(); m["method"] != "session/cancel" {
		h.t.Fatalf("agent got %v, want session/cancel", m)
	}
	if seen {
		if m := h.nextAtIDE(); get(m, "params", "update", "toolCallId") != id || get(m, "params", "update", "status") != "failed" {
			h.t.Fatalf("IDE got %v, want %s marked failed", m, id)
		}
	}
	if m := h.nextAtIDE(); get(m, "params", "update", "sessionUpdate") != "agent_message_chunk" {
		h.t.Fatalf("IDE got %v, want the bridge's note", m)
	}
	h.marker()
}

// wantForwarded checks the IDE got the update of call id next.
func (h *harness) wantForwarded(id string) {
	h.t.Helper()
	if m := h.nextAtIDE(); get(m, "params", "update", "toolCallId") != id {
		h.t.Fatalf("IDE got %v, want the update of %s", m, id)
	}
}

// TestEnforceUpdatesAreDecidedAgain: a tool_call_update that changes what
// the call does (its input, locations, diff paths, kind or title) is
// decided again, and a denied change is blocked like a denied call.
func TestEnforceUpdatesAreDecidedAgain(t *testing.T) {
	tests := []struct {
		name          string
		first, change string // update bodies; %[1]s is the workspace root
	}{
		{"input ls then rm -rf",
			`"sessionUpdate":"tool_call","toolCallId":"t1","title":"Terminal","kind":"execute","status":"pending","rawInput":{"command":"ls"}`,
			`"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"in_progress","rawInput":{"command":"rm -rf /tmp/x"}`},
		{"title is the command",
			`"sessionUpdate":"tool_call","toolCallId":"t1","title":"ls","kind":"execute","status":"pending"`,
			`"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"curl http://x"`},
		{"locations move to .env",
			`"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read","kind":"read","status":"pending","locations":[{"path":"%[1]s/src/a.go"}]`,
			`"sessionUpdate":"tool_call_update","toolCallId":"t1","locations":[{"path":"%[1]s/.env"}]`},
		{"kind read becomes edit of a key",
			`"sessionUpdate":"tool_call","toolCallId":"t1","title":"key","kind":"read","status":"pending","locations":[{"path":"%[1]s/src/k.pem"}]`,
			`"sessionUpdate":"tool_call_update","toolCallId":"t1","kind":"edit"`},
		{"diff path outside the workspace",
			`"sessionUpdate":"tool_call","toolCallId":"t1","title":"Edit","kind":"edit","status":"pending","locations":[{"path":"%[1]s/src/a.go"}]`,
			`"sessionUpdate":"tool_call_update","toolCallId":"t1","content":[{"type":"diff","path":"/etc/passwd","oldText":"a","newText":"b"}]`},
		{"input cwd outside the workspace",
			`"sessionUpdate":"tool_call","toolCallId":"t1","title":"Terminal","kind":"execute","status":"pending","rawInput":{"command":"ls"}`,
			`"sessionUpdate":"tool_call_update","toolCallId":"t1","rawInput":{"command":"ls","cwd":"/etc"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, EnforceOptions{})
			h.openSession()
			h.agent("%s", toolUpdate(h.rooted(tt.first)))
			h.wantForwarded("t1")
			h.agent("%s", toolUpdate(h.rooted(tt.change)))
			h.wantBlocked("t1", true)
			if v := h.rec.find("policy.violation", "deny"); len(v) != 1 || !v[0].sync {
				t.Fatalf("violation records: %+v", v)
			}
			// Nothing more of it reaches the IDE, even after it ends.
			h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"`))
			h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","rawInput":{"command":"ls"}`))
			h.marker()
		})
	}
}

// TestEnforceDiffOnlyEditIsJudged: an edit reported only by its diff
// content, under a kind that says nothing of writing, is judged as an
// edit of the diff's path.
func TestEnforceDiffOnlyEditIsJudged(t *testing.T) {
	for _, tt := range []struct{ name, body string }{
		{"outside, no kind", `"sessionUpdate":"tool_call","toolCallId":"d1","title":"x","status":"pending","content":[{"type":"diff","path":"/etc/cron.d/x","newText":"b"}]`},
		{"outside, kind other", `"sessionUpdate":"tool_call","toolCallId":"d1","title":"x","kind":"other","status":"completed","content":[{"type":"diff","path":"/etc/cron.d/x","newText":"b"}]`},
		{"denied edit under kind read", `"sessionUpdate":"tool_call","toolCallId":"d1","title":"x","kind":"read","status":"pending","content":[{"type":"diff","path":"%[1]s/src/k.pem","newText":"b"}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, EnforceOptions{})
			h.openSession()
			h.agent("%s", toolUpdate(h.rooted(tt.body)))
			h.wantBlocked("d1", false)
			if v := h.rec.find("tool.call", "allow"); len(v) != 0 {
				t.Fatalf("recorded as allowed: %+v", v)
			}
		})
	}
}

// TestEnforceToolCallWithoutID: a tool call the bridge cannot follow (no
// toolCallId, or an empty one) is not forwarded, and the refusal is
// recorded.
func TestEnforceToolCallWithoutID(t *testing.T) {
	for _, body := range []string{
		`"sessionUpdate":"tool_call","title":"Terminal","kind":"execute","status":"pending","rawInput":{"command":"ls"}`,
		`"sessionUpdate":"tool_call","toolCallId":"","title":"Terminal","kind":"execute","status":"pending","rawInput":{"command":"ls"}`,
		`"sessionUpdate":"tool_call_update","toolCallId":"","status":"completed","rawInput":{"command":"rm -rf /"}`,
	} {
		h := newHarness(t, EnforceOptions{})
		h.openSession()
		h.agent("%s", toolUpdate(body))
		h.wantBlocked("", false)
		if evs := h.rec.find("message.refused", "deny"); len(evs) != 1 || !evs[0].sync {
			t.Fatalf("%s: message.refused records: %+v", body, evs)
		}
	}
}

// TestEnforceApprovalWithdrawnOnChange: a call the person approved that
// then says it does something else is decided again; the approval does
// not carry over, and a tool that ran without the approval the policy
// wants is recorded as a violation.
func TestEnforceApprovalWithdrawnOnChange(t *testing.T) {
	h := newHarness(t, EnforceOptions{})
	h.openSession()
	h.agent("%s", permissionRequest(30, "c9", "execute", `{"command":"git commit -m wip"}`))
	if m := h.nextAtIDE(); m["method"] != "session/request_permission" {
		t.Fatalf("IDE got %v", m)
	}
	h.ide(`{"jsonrpc":"2.0","id":30,"result":{"outcome":{"outcome":"selected","optionId":"yes"}}}`)
	h.nextAtAgent()
	h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"c9","status":"in_progress","rawInput":{"command":"git commit -am everything"}`))
	h.wantForwarded("c9")
	h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"c9","status":"completed"`))
	h.wantForwarded("c9")
	var withdrawn bool
	for _, r := range h.rec.find("tool.call", "require-approval") {
		if r.ev.Metadata["approvalWithdrawn"] != nil {
			withdrawn = true
		}
	}
	if !withdrawn {
		t.Errorf("no record says the approval was withdrawn")
	}
	if v := h.rec.find("policy.violation", "require-approval"); len(v) != 1 {
		t.Fatalf("violation records: %+v", v)
	}
}

// TestEnforceStaleApproval: the person's yes to what a call said when
// they were asked does not approve what it says now.
func TestEnforceStaleApproval(t *testing.T) {
	h := newHarness(t, EnforceOptions{})
	h.openSession()
	h.agent("%s", permissionRequest(31, "c1", "execute", `{"command":"git commit -m x"}`))
	h.nextAtIDE()
	h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"c1","rawInput":{"command":"git commit -am all"}`))
	h.wantForwarded("c1")
	h.ide(`{"jsonrpc":"2.0","id":31,"result":{"outcome":{"outcome":"selected","optionId":"yes"}}}`)
	if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "no" {
		t.Fatalf("agent got %v, want reject: the call changed after the person was asked", m)
	}
}

// TestEnforceCallStateIsBounded: calls left open with huge inputs hold a
// bounded amount of memory, and closing the session frees it.
func TestEnforceCallStateIsBounded(t *testing.T) {
	e, root := testEngine(t)
	b := acpwire.New(acpwire.Options{})
	x := NewEnforcer(EnforceOptions{Engine: e, Sender: b})
	var forwarded int
	h := x.Middleware()(acpwire.HandlerFunc(func(context.Context, *acpwire.Message) error { forwarded++; return nil }))
	ctx := context.Background()
	handle := func(dir acpwire.Direction, line []byte) {
		t.Helper()
		m, err := acpwire.Parse(dir, line)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Handle(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	open := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, root)
	handle(acpwire.ClientToAgent, []byte(open))
	resp, _ := acpwire.Parse(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`))
	req, _ := acpwire.Parse(acpwire.ClientToAgent, []byte(open))
	resp.Request = req
	if err := h.Handle(ctx, resp); err != nil {
		t.Fatal(err)
	}

	const calls, size = 20, 50 << 20
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	content := strings.Repeat("x", size)
	for i := range calls {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"big%d","title":"Write","kind":"edit","status":"in_progress","locations":[{"path":"%s/src/f%d.txt"}],"rawInput":{"file_path":"%s/src/f%d.txt","content":"%s"}}}}`,
			i, root, i, root, i, content)
		handle(acpwire.AgentToClient, []byte(line))
	}
	content = ""
	held := heap()
	if forwarded != calls+2 {
		t.Fatalf("forwarded %d messages, want %d", forwarded, calls+2)
	}
	x.mu.Lock()
	open20 := len(x.calls)
	x.mu.Unlock()
	if open20 != calls {
		t.Fatalf("%d calls tracked, want %d", open20, calls)
	}
	grew := int64(held) - int64(before)
	t.Logf("%d open calls of %d MiB input hold %d KiB", calls, size>>20, grew>>10)
	if grew > 4<<20 {
		t.Fatalf("%d open calls hold %d bytes, want at most 4 MiB", calls, grew)
	}
	// The record of a cut input names its size and hash.
	x.mu.Lock()
	c := x.calls[callKey("s1", "big0")]
	x.mu.Unlock()
	rec, _ := inputRecord(c).(map[string]any)
	if rec == nil || rec["size"] == nil || len(rec["sha256"].(string)) != 64 {
		t.Fatalf("input record of a large input = %v, want its size and SHA-256", inputRecord(c))
	}
	handle(acpwire.ClientToAgent, []byte(`{"jsonrpc":"2.0","id":2,"method":"session/close","params":{"sessionId":"s1"}}`))
	x.mu.Lock()
	left := len(x.calls)
	x.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d calls left after session/close", left)
	}
}

// TestEnforceEndedCallsAreFreed: a call's state goes when it ends.
func TestEnforceEndedCallsAreFreed(t *testing.T) {
	h := newHarness(t, EnforceOptions{})
	h.openSession()
	for i, status := range []string{"completed", "failed"} {
		id := fmt.Sprintf("e%d", i)
		h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call","toolCallId":%q,"title":"ls","kind":"execute","status":"pending","rawInput":{"command":"ls"}`, id))
		h.wantForwarded(id)
		h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":%q,"status":%q`, id, status))
		h.wantForwarded(id)
	}
	// A stopped call leaves only its key, until the session ends.
	h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call","toolCallId":"s","title":"x","kind":"execute","status":"pending","rawInput":{"command":"curl x"}`))
	h.wantBlocked("s", false)
	h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"s","status":"failed"`))
	h.marker()
	if n := countCalls(h); n != 0 {
		t.Fatalf("%d calls tracked after they ended", n)
	}
}

func countCalls(h *harness) int {
	h.enf.mu.Lock()
	defer h.enf.mu.Unlock()
	return len(h.enf.calls)
}
