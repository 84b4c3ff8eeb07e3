package governance

import (
	"context"
	"encoding/json"
	"errors"
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
			h := sessionHarness(t, EnforceOptions{})
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
			h := sessionHarness(t, EnforceOptions{})
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
		h := sessionHarness(t, EnforceOptions{})
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
	h := sessionHarness(t, EnforceOptions{})
	h.agent("%s", permissionRequest(30, "c9", "execute", `{"command":"git commit -m wip"}`))
	h.approve(30)
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
	h := sessionHarness(t, EnforceOptions{})
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
// bounded amount of memory, and closing the session frees it. Each input
// is 4 MiB, 64 times maxKept: a call that kept its input, or a slice of
// the line it came in, would hold 20 times the 4 MiB bound.
func TestEnforceCallStateIsBounded(t *testing.T) {
	x, root, handle, forwarded := directEnforcer(t)
	const calls, size = 20, 4 << 20
	before := heapAlloc()
	content := strings.Repeat("x", size)
	for i := range calls {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"big%d","title":"Write","kind":"edit","status":"in_progress","locations":[{"path":"%s/src/f%d.txt"}],"rawInput":{"file_path":"%s/src/f%d.txt","content":"%s"}}}}`,
			i, root, i, root, i, content)
		handle(acpwire.AgentToClient, []byte(line))
	}
	content = ""
	held := heapAlloc()
	if *forwarded != calls+2 {
		t.Fatalf("forwarded %d messages, want %d", *forwarded, calls+2)
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
	h := sessionHarness(t, EnforceOptions{})
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

// directEnforcer is an Enforcer driven without pipes: handle passes one
// line through its middleware, and forwarded counts what reached the end
// of the chain. Session s1 is open in root.
func directEnforcer(t *testing.T) (x *Enforcer, root string, handle func(acpwire.Direction, []byte), forwarded *int) {
	t.Helper()
	e, root := testEngine(t)
	x = NewEnforcer(EnforceOptions{Engine: e, Sender: nopSender{}})
	forwarded = new(int)
	h := x.Middleware()(acpwire.HandlerFunc(func(context.Context, *acpwire.Message) error { *forwarded++; return nil }))
	ctx := context.Background()
	handle = func(dir acpwire.Direction, line []byte) {
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
	return x, root, handle, forwarded
}

// TestEnforceOpenCallsAreBounded: however many calls an agent leaves open,
// and however large each, the bridge keeps a bounded number and size of
// them, forgetting the oldest; a call it stopped stays stopped.
func TestEnforceOpenCallsAreBounded(t *testing.T) {
	x, root, handle, forwarded := directEnforcer(t)
	handle(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"stopped","title":"x","kind":"execute","status":"pending","rawInput":{"command":"curl http://x"}}}}`))
	input := strings.Repeat("y", 60<<10)
	for i := range 2 * maxOpenCalls {
		raw := `{}`
		if i < 1000 {
			raw = fmt.Sprintf(`{"file_path":"%s/src/f.go","old_string":"%s"}`, root, input)
		}
		handle(acpwire.AgentToClient, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c%d","title":"Read","kind":"read","status":"in_progress","rawInput":%s}}}`, i, raw)))
		x.mu.Lock()
		n, kept := len(x.calls), x.keptTotal
		x.mu.Unlock()
		if n > maxOpenCalls || kept > maxKeptTotal+maxKept*4 {
			t.Fatalf("after %d calls: %d open, %d bytes kept", i+1, n, kept)
		}
	}
	before := *forwarded
	handle(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"stopped","status":"completed","content":[{"type":"content","content":{"type":"text","text":"SECRET"}}]}}}`))
	if *forwarded != before {
		t.Fatal("an update of a stopped call reached the IDE after the call was forgotten")
	}
	long := strings.Repeat("i", maxCallID+1)
	handle(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"`+long+`","title":"Read","kind":"read","status":"pending"}}}`))
	if *forwarded != before {
		t.Fatal("a tool call with an over-long toolCallId reached the IDE")
	}
}

// nopSender is a Sender with no peers: what the enforcer says goes nowhere.
type nopSender struct{}

func (nopSender) Reply(*acpwire.Message, any) error                 { return nil }
func (nopSender) ReplyError(*acpwire.Message, *acpwire.Error) error { return nil }
func (nopSender) Notify(acpwire.Direction, string, any) error       { return nil }
func (nopSender) Call(context.Context, acpwire.Direction, string, any) (json.RawMessage, error) {
	return nil, errors.New("no peer")
}
func (nopSender) CallThen(_ context.Context, _ acpwire.Direction, _ string, _ any, then func(json.RawMessage, error) error) error {
	return then(nil, errors.New("no peer"))
}

// TestEnforceStoppedCallsAreBounded: the calls the bridge remembers
// stopping are bounded too; past the bound it takes on no new call.
func TestEnforceStoppedCallsAreBounded(t *testing.T) {
	x, _, handle, forwarded := directEnforcer(t)
	for i := range maxStopped + 10 {
		handle(acpwire.AgentToClient, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"s%d","title":"x","kind":"execute","status":"failed","rawInput":{"command":"curl http://x"}}}}`, i)))
	}
	x.mu.Lock()
	n := len(x.stopped)
	x.mu.Unlock()
	if n > maxStopped {
		t.Fatalf("%d stopped calls remembered, want at most %d", n, maxStopped)
	}
	before := *forwarded
	handle(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"new","title":"ls","kind":"execute","status":"pending","rawInput":{"command":"ls"}}}}`))
	if *forwarded != before {
		t.Fatal("a new call reached the IDE after the bridge stopped taking them on")
	}
}

// TestEnforceHeldPermissionsAreLight: permission requests waiting for the
// person do not keep their bytes: ten of 4 MiB hold a few KiB, where
// requests that kept their lines would hold ten times the 4 MiB bound.
func TestEnforceHeldPermissionsAreLight(t *testing.T) {
	x, root, handle, forwarded := directEnforcer(t)
	before := heapAlloc()
	const size = 4 << 20
	content := strings.Repeat("z", size)
	for i := range 10 {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p%d","title":"Write","kind":"edit","status":"pending","locations":[{"path":"%s/README.md"}],"rawInput":{"file_path":"%s/README.md","content":"%s"}},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`,
			100+i, i, root, root, content)
		handle(acpwire.AgentToClient, []byte(line))
	}
	content = ""
	held := heapAlloc()
	x.mu.Lock()
	n := len(x.perms)
	x.mu.Unlock()
	if n != 10 || *forwarded != 12 {
		t.Fatalf("%d permission requests held, %d messages forwarded; want 10 and 12", n, *forwarded)
	}
	grew := int64(held) - int64(before)
	t.Logf("10 held permission requests of %d MiB hold %d KiB", size>>20, grew>>10)
	if grew > 4<<20 {
		t.Fatalf("10 held permission requests hold %d bytes, want at most 4 MiB", grew)
	}
}

// TestEnforceWaitingPermissionsAreBounded: an agent cannot pile up
// permission requests for the person without end.
func TestEnforceWaitingPermissionsAreBounded(t *testing.T) {
	x, _, handle, forwarded := directEnforcer(t)
	for i := range maxWaitingPermissions + 50 {
		handle(acpwire.AgentToClient, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p%d","title":"git commit","kind":"execute","rawInput":{"command":"git commit -m x"}},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`, 100+i, i)))
	}
	x.mu.Lock()
	n := len(x.perms)
	x.mu.Unlock()
	if n > maxWaitingPermissions || *forwarded > maxWaitingPermissions+2 {
		t.Fatalf("%d permission requests waiting, %d messages forwarded; want at most %d waiting", n, *forwarded, maxWaitingPermissions)
	}
}

// heapAlloc returns the bytes of live heap objects after a collection.
func heapAlloc() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
