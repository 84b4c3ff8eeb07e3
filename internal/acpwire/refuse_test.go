package acpwire_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// refusals collects what the OnRefused hook hears.
type refusals struct {
	mu   sync.Mutex
	list []acpwire.Refusal
	ch   chan struct{}
}

func (r *refusals) hook(x acpwire.Refusal) {
	r.mu.Lock()
	r.list = append(r.list, x)
	if r.ch == nil {
		r.ch = make(chan struct{}, 100)
	}
	ch := r.ch
	r.mu.Unlock()
	ch <- struct{}{}
}

// last waits for the hook to have heard of a refusal and returns the
// latest. The hook runs after the bridge has answered, so a test that saw
// the answer may still have to wait for it.
func (r *refusals) last() (acpwire.Refusal, bool) {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		if len(r.list) > 0 {
			x := r.list[len(r.list)-1]
			r.mu.Unlock()
			return x, true
		}
		r.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	return acpwire.Refusal{}, false
}

// TestRefusedNeverForwarded: every line below would be a request,
// notification or response to some peer's JSON-RPC stack (JavaScript's
// JSON.parse and the TypeScript SDK's dispatch, Go's encoding/json) but is
// read differently, or not at all, by another, or breaks a strict rule.
// None reaches the other peer; a sender waiting on an id gets -32600 (or,
// for a refused response, the requester gets an error); the hook hears of
// each with its reason. More refusals, as wire transcripts, are under testdata/scenarios
// (TestScenarios).
func TestRefusedNeverForwarded(t *testing.T) {
	tests := []struct {
		name string
		line string
		// answer is a substring of the error the sender receives, "" for
		// no answer.
		answer string
		reason string
	}{
		{"trailing no-break space", `{"jsonrpc":"2.0","id":2,"method":"terminal/create","params":{"sessionId":"s","command":"rm"}}` + "\u00a0", `"id":2,"error":{"code":-32600`, "white space"},
		{"leading vertical tab", "\v" + `{"jsonrpc":"2.0","id":3,"method":"terminal/create","params":{}}`, `"id":3,"error":{"code":-32600`, "white space"},
		{"not JSON", `{"jsonrpc":"2.0","id":4,"method":"x"`, "", "not valid JSON"},
		{"method not a string", `{"jsonrpc":"2.0","id":5,"method":5}`, `"id":5,"error":{"code":-32600`, "method is not a string"},
		{"empty method with an id", `{"jsonrpc":"2.0","id":"3","method":"","result":{"sessions":[{"sessionId":"s","cwd":"/"}]}}`, `"id":"3","error":{"code":-32600`, "method is empty"},
		{"duplicate id", `{"jsonrpc":"2.0","id":7,"id":8,"method":"x/y"}`, `"error":{"code":-32600`, "duplicate member"},
		{"ID in another case", `{"jsonrpc":"2.0","ID":10,"method":"fs/read_text_file","params":{"path":"/etc/passwd"}}`, `"id":10,"error":{"code":-32600`, `differs only in case from "id"`},
		{"Params in another case", `{"jsonrpc":"2.0","id":11,"method":"fs/read_text_file","params":{},"PARAMS":{"path":"/etc/passwd"}}`, `"id":11,"error":{"code":-32600`, `from "params"`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"fs/read_text_file"}`, "", "id is not a string, number or null"},
		{"batch of notifications", `[{"jsonrpc":"2.0","method":"session/update","params":{}}]`, "", "batches are not supported"},
		{"bare string", `"fs/read_text_file"`, "", "not a JSON-RPC object"},
		{"response without result or error", `{"jsonrpc":"2.0","id":13}`, "", "exactly one of result and error"},
		{"error null", `{"jsonrpc":"2.0","id":14,"error":null}`, "", "error is not an object"},
		{"error a string", `{"jsonrpc":"2.0","id":16,"error":"no"}`, "", "error is not an object"},
		{"strict: duplicate path", `{"jsonrpc":"2.0","id":15,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/ws/a","path":"/etc/passwd"}}`, `"id":15,"error":{"code":-32600`, "duplicate object member name"},
		{"strict: Command alone", `{"jsonrpc":"2.0","id":17,"method":"terminal/create","params":{"sessionId":"s","Command":"rm -rf /"}}`, `"id":17,"error":{"code":-32600`, `from "command"`},
		{"strict: unpaired surrogate", `{"jsonrpc":"2.0","id":18,"method":"fs/write_text_file","params":{"sessionId":"s","path":"/ws/\ud800","content":""}}`, `"id":18,"error":{"code":-32600`, "surrogate"},
		{"strict: id null is a request", `{"jsonrpc":"2.0","id":null,"method":"fs/read_text_file","params":{"path":"/ws/a","path":"/etc/passwd"}}`, `"id":null,"error":{"code":-32600`, "duplicate"},
		{"strict: tool_call duplicate kind", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"x","kind":"read","kind":"execute"}}}`, "", "duplicate"},
		{"strict: chunk with SessionUpdate", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","SessionUpdate":"tool_call","toolCallId":"t","title":"x"}}}`, "", "case"},
		{"strict: chunk with two session ids", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","sessionId":"other","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`, "", "duplicate"},
		{"strict: chunk with escaped name", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","session\u0055pdate":"tool_call"}}}`, "", "duplicate"},
		{"session/update with an id", `{"jsonrpc":"2.0","id":"u1","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"rm","kind":"execute","status":"completed","rawInput":{"command":"rm -rf x"}}}}`, `"id":"u1","error":{"code":-32600`, "session/update is a notification"},
		{"session/update with id null", `{"jsonrpc":"2.0","id":null,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"rm","status":"completed"}}}`, `"id":null,"error":{"code":-32600`, "session/update is a notification"},
		{"elicitation/complete with an id", `{"jsonrpc":"2.0","id":20,"method":"elicitation/complete","params":{}}`, `"id":20,"error":{"code":-32600`, "is a notification"},
		{"fs/read_text_file without an id", `{"jsonrpc":"2.0","method":"fs/read_text_file","params":{"sessionId":"s","path":"/etc/passwd"}}`, "", "fs/read_text_file is a request"},
		{"terminal/create without an id", `{"jsonrpc":"2.0","method":"terminal/create","params":{"sessionId":"s","command":"rm"}}`, "", "terminal/create is a request"},
		{"session/request_permission without an id", `{"jsonrpc":"2.0","method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t"},"options":[]}}`, "", "is a request"},
		{"update without jsonrpc", `{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","title":"rm -rf x","kind":"execute"}}}`, "", `jsonrpc is not "2.0"`},
		{"update with jsonrpc 1.0", `{"jsonrpc":"1.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","kind":"execute"}}}`, "", `jsonrpc is not "2.0"`},
		{"jsonrpc a number", `{"jsonrpc":2,"id":21,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/ws/a"}}`, `"id":21,"error":{"code":-32600`, `jsonrpc is not "2.0"`},
		{"jsonrpc null", `{"jsonrpc":null,"id":22,"method":"terminal/create","params":{"sessionId":"s","command":"rm"}}`, `"id":22,"error":{"code":-32600`, `jsonrpc is not "2.0"`},
		{"jsonrpc with a space", `{"jsonrpc":"2.0 ","id":23,"method":"x/y"}`, `"id":23,"error":{"code":-32600`, `jsonrpc is not "2.0"`},
		{"update with an error member", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","kind":"execute"}},"error":0}`, "", "carries result or error"},
		{"request with a result member", `{"jsonrpc":"2.0","id":24,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/ws/a"},"result":{}}`, `"id":24,"error":{"code":-32600`, "carries result or error"},
		{"extension request with an error object", `{"jsonrpc":"2.0","id":25,"method":"_x/y","error":{"code":1,"message":"m"}}`, `"id":25,"error":{"code":-32600`, "carries result or error"},
		{"strict: invalid UTF-8 late in a tool's long output", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","content":[{"type":"content","content":{"type":"text","text":"` + strings.Repeat(`the build failed on line 12.\n`, 40) + "\xff" + `done"}}]}}}`, "", "UTF-8"},
		{"strict: lone continuation byte in a long file to write", `{"jsonrpc":"2.0","id":26,"method":"fs/write_text_file","params":{"sessionId":"s","path":"/ws/a","content":"` + strings.Repeat(`func main() {\n\tfmt.Println(\"hi\")\n}\n`, 30) + "\x80" + `"}}`, `"id":26,"error":{"code":-32600`, "UTF-8"},
		{"strict: sequence cut short at the end of a long command", `{"jsonrpc":"2.0","id":27,"method":"terminal/create","params":{"sessionId":"s","command":"` + strings.Repeat("echo ok && ", 30) + "\xc3" + `"}}`, `"id":27,"error":{"code":-32600`, "UTF-8"},
		{"strict: cancel with two request ids", `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1,"requestId":2}}`, "", "duplicate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, r := sendBeforeMarker(t, tt.line)
			x := checkRefused(t, h, r, refusalMarker, tt.answer, tt.reason)
			if x.Answered != (tt.answer != "") {
				t.Errorf("Answered = %v", x.Answered)
			}
		})
	}
}

// refusalMarker is the message a test sends after the one it expects
// refused: the client gets it next when the refused one did not reach it.
const refusalMarker = `{"jsonrpc":"2.0","method":"marker"}`

// sendBeforeMarker starts a bridge over pipes, sends line and then
// refusalMarker from the agent, and returns the harness and the refusals
// the bridge reported.
func sendBeforeMarker(t *testing.T, line string) (*harness, *refusals) {
	t.Helper()
	r := &refusals{}
	h := newHarness(t, acpwire.Options{OnRefused: r.hook})
	h.FromAgent(line)
	h.FromAgent(refusalMarker)
	return h, r
}

// checkRefused checks that the line sent before marker was refused: the
// agent got an error answer holding answer (none when answer is empty),
// the client got marker next and not the line, and the refusal hook heard
// a reason holding reason. It returns that refusal.
func checkRefused(t *testing.T, h *harness, r *refusals, marker, answer, reason string) acpwire.Refusal {
	t.Helper()
	if answer != "" {
		if got := h.AgentGets(); !strings.Contains(got, answer) {
			t.Errorf("agent got %s, want %s", got, answer)
		}
	}
	if got := h.ClientGets(); got != refusalMarker {
		t.Fatalf("client got %.200s: the refused line reached it", got)
	}
	x, ok := r.last()
	if !ok {
		t.Fatal("the hook heard of no refusal")
	}
	if !strings.Contains(x.Reason, reason) {
		t.Errorf("reason %q, want it to say %q", x.Reason, reason)
	}
	return x
}

// TestLeadingWhiteSpaceStillJudged: a request behind a carriage return or
// line feed (JSON white space, which every parser skips) is a request to
// the bridge too: middleware sees it as one.
func TestLeadingWhiteSpaceStillJudged(t *testing.T) {
	for _, lead := range []string{"\r", "\r\r", " \t\r "} {
		seen := make(chan string, 1)
		h := newHarness(t, acpwire.Options{}, mw(func(b *acpwire.Bridge, next acpwire.Handler, ctx context.Context, m *acpwire.Message) error {
			if m.IsRequest("fs/read_text_file") {
				seen <- m.Method
				return b.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "denied"))
			}
			return next.Handle(ctx, m)
		}))
		h.FromAgent(lead + `{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/etc/passwd"}}`)
		if got := h.AgentGets(); !strings.Contains(got, "denied") {
			t.Fatalf("lead %q: agent got %s", lead, got)
		}
		<-seen
	}
}

// TestStrictResponseRefused: the client's answer to a permission request
// with two outcomes is refused; the agent gets an error in its place.
func TestStrictResponseRefused(t *testing.T) {
	var r refusals
	h := newHarness(t, acpwire.Options{OnRefused: r.hook})
	h.FromAgent(`{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t"},"options":[]}}`)
	h.ClientGets()
	h.FromClient(`{"jsonrpc":"2.0","id":"p1","result":{"outcome":{"outcome":"cancelled"},"outcome":{"outcome":"selected","optionId":"allow"}}}`)
	got := h.AgentGets()
	if !strings.Contains(got, `"id":"p1","error":{"code":-32603`) || !strings.Contains(got, "duplicate") {
		t.Fatalf("agent got %s", got)
	}
	if x, ok := r.last(); !ok || !x.Answered || !strings.Contains(x.Reason, "response to session/request_permission") {
		t.Fatalf("refusal %+v", x)
	}
}

// TestResponseWithoutVersionRefused: the agent's answer to the client's
// session/new without "jsonrpc" is a failure to the TypeScript SDK and a
// session to acp-go-sdk; the client gets an error in its place, and an
// answer whose version is "2.0" written with an escape still passes.
func TestResponseWithoutVersionRefused(t *testing.T) {
	var r refusals
	h := newHarness(t, acpwire.Options{OnRefused: r.hook})
	h.FromClient(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","mcpServers":[]}}`)
	h.AgentGets()
	h.FromAgent(`{"id":1,"result":{"sessionId":"s1"}}`)
	if got := h.ClientGets(); !strings.Contains(got, `"id":1,"error":{"code":-32603`) || !strings.Contains(got, `jsonrpc is not \"2.0\"`) {
		t.Fatalf("client got %s", got)
	}
	if x, ok := r.last(); !ok || !x.Answered || x.Msg.Request == nil || x.Msg.Request.Method != "session/new" {
		// The hook hears which request the bridge answered in the
		// agent's place: its requester reads it as ended.
		t.Fatalf("refusal %+v, want it answered and naming the session/new it answered", x)
	}
	h.FromClient(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/ws","mcpServers":[]}}`)
	h.AgentGets()
	escaped := `{"jsonrpc":"2\u002e0","id":2,"result":{"sessionId":"s2"}}`
	h.FromAgent(escaped)
	if got := h.ClientGets(); got != escaped {
		t.Fatalf("client got %s, want %s", got, escaped)
	}
}

// TestNonStrictMessagesUntouched: methods outside the strict set keep
// every byte, duplicates and all.
func TestNonStrictMessagesUntouched(t *testing.T) {
	h := newHarness(t, acpwire.Options{})
	line := `{"jsonrpc":"2.0","id":1,"method":"_zed/x","params":{"a":1,"a":2,"A":3,"s":"\ud800"}}`
	h.FromClient(line)
	if got := h.AgentGets(); got != line {
		t.Fatalf("agent got %s", got)
	}
}

// TestCancelAndLateAnswerStayInBridge: a $/cancel_request for a request the
// bridge answered itself, or never forwarded, and an answer to such a
// request, never reach the peer that did not see the request; a cancel of
// a request the peer did see still does.
func TestCancelAndLateAnswerStayInBridge(t *testing.T) {
	var r refusals
	h := newHarness(t, acpwire.Options{OnRefused: r.hook}, mw(func(b *acpwire.Bridge, next acpwire.Handler, ctx context.Context, m *acpwire.Message) error {
		if m.IsRequest("fs/read_text_file") {
			return b.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "denied"))
		}
		if m.IsRequest("local/answer-after-forward") {
			if err := next.Handle(ctx, m); err != nil {
				return err
			}
			return b.Reply(m, "bridge answered")
		}
		return next.Handle(ctx, m)
	}))
	const marker = `{"jsonrpc":"2.0","method":"marker"}`
	// Answered by the bridge, never forwarded: its cancel stays.
	h.FromAgent(`{"jsonrpc":"2.0","id":"r1","method":"fs/read_text_file","params":{"sessionId":"s","path":"/etc/passwd"}}`)
	if got := h.AgentGets(); !strings.Contains(got, "denied") {
		t.Fatalf("agent got %s", got)
	}
	h.FromAgent(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"r1"}}`)
	h.FromAgent(marker)
	if got := h.ClientGets(); got != refusalMarker {
		t.Fatalf("client got %s, want the cancel kept in the bridge", got)
	}
	if x, _ := r.last(); !strings.Contains(x.Reason, "cancellation") {
		t.Errorf("refusal reason %q", x.Reason)
	}
	// Refused before any middleware (a batch): its cancel stays too.
	h.FromAgent(`[{"jsonrpc":"2.0","id":"r2","method":"terminal/create","params":{}}]`)
	h.AgentGets()
	h.FromAgent(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"r2"}}`)
	h.FromAgent(marker)
	if got := h.ClientGets(); got != refusalMarker {
		t.Fatalf("client got %s", got)
	}
	// Forwarded, then answered by the bridge: the cancel and the late
	// answer both stay.
	h.FromClient(`{"jsonrpc":"2.0","id":5,"method":"local/answer-after-forward"}`)
	h.AgentGets()
	if got := h.ClientGets(); !strings.Contains(got, "bridge answered") {
		t.Fatalf("client got %s", got)
	}
	h.FromClient(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":5}}`)
	h.FromClient(marker)
	if got := h.AgentGets(); got != refusalMarker {
		t.Fatalf("agent got %s, want the cancel kept in the bridge", got)
	}
	h.FromAgent(`{"jsonrpc":"2.0","id":5,"result":"late"}`)
	h.FromAgent(marker)
	if got := h.ClientGets(); got != refusalMarker {
		t.Fatalf("client got %s, want the late answer kept in the bridge", got)
	}
	// A request the peer did see and that waits: its cancel goes through,
	// however the id is spelled.
	h.FromClient(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`)
	h.AgentGets()
	cancel := `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":7.0}}`
	h.FromClient(cancel)
	if got := h.AgentGets(); got != cancel {
		t.Fatalf("agent got %s, want the cancel", got)
	}
}

// TestOversizedAnswerHeardAsRefused: a response over the size limit is
// dropped unread and its requester answered with an error; the hook hears
// which request the bridge answered in the peer's place, and the line's
// size.
func TestOversizedAnswerHeardAsRefused(t *testing.T) {
	var r refusals
	h := newHarness(t, acpwire.Options{OnRefused: r.hook, MaxLineSize: 1 << 10})
	h.FromClient(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","mcpServers":[]}}`)
	h.AgentGets()
	line := `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"` + strings.Repeat("s", 4<<10) + `"}}`
	h.FromAgent(line)
	if got := h.ClientGets(); !strings.Contains(got, `"id":1,"error"`) {
		t.Fatalf("client got %s, want its session/new answered with an error", got)
	}
	x, ok := r.last()
	if !ok || !x.Answered || x.Size != len(line) || x.Msg.Request == nil || x.Msg.Request.Method != "session/new" {
		t.Fatalf("refusal %+v, want it answered, its size %d and naming the session/new it answered", x, len(line))
	}
}
