package acpwire_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

func readCorpus(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) == 0 {
		t.Fatal("empty corpus")
	}
	return lines
}

// TestByteIdentity sends every message of the unusual corpus through the
// bridge in both directions: each must arrive with exactly its bytes.
func TestByteIdentity(t *testing.T) {
	corpus := readCorpus(t, "unusual.jsonl")
	for _, dir := range []acpwire.Direction{acpwire.ClientToAgent, acpwire.AgentToClient} {
		t.Run(dir.String(), func(t *testing.T) {
			h := newHarness(t, acpwire.Options{})
			back := acpwire.AgentToClient // the way answers to dir go
			if dir == acpwire.AgentToClient {
				back = acpwire.ClientToAgent
			}
			for i, line := range corpus {
				m, err := acpwire.Parse(dir, []byte(line))
				ok := err == nil
				if ok && m.Kind == acpwire.KindResponse {
					// A response is forwarded only to a peer that asked.
					h.pass(back, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"x/ask"}`, m.ID))
				}
				if ok && m.IsNotification("$/cancel_request") {
					id, _ := m.Get("params", "requestId")
					// A cancel is forwarded only for a request the peer
					// was sent and that still waits.
					h.pass(dir, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"x/slow"}`, id))
				}
				if got := h.pass(dir, line); got != line {
					t.Errorf("line %d changed:\n sent %s\n  got %s", i+1, line, got)
				}
			}
		})
	}
}

// TestFramingTolerance: CRLF line ends are trimmed, blank lines skipped, and
// a line that is not JSON is never forwarded.
func TestFramingTolerance(t *testing.T) {
	h := newHarness(t, acpwire.Options{})
	h.FromAgent("\r")
	h.FromAgent("   ")
	h.FromAgent("Welcome back! (shell profile noise)")
	h.FromAgent(`{"jsonrpc":"2.0","method":"a"}` + "\r")
	if got := h.ClientGets(); got != `{"jsonrpc":"2.0","method":"a"}` {
		t.Fatalf("client got %q, want the first JSON line with \\r trimmed", got)
	}
	h.FromClient(`{not json`)
	h.FromClient(`{"jsonrpc":"2.0","method":"b"}`)
	if got := h.AgentGets(); got != `{"jsonrpc":"2.0","method":"b"}` {
		t.Fatalf("agent got %q", got)
	}
}

// TestOrdering: a turn's 10,000 updates all reach the client before the
// prompt response, 100 runs in a row, with a middleware that takes varying
// time on each message.
func TestOrdering(t *testing.T) {
	const updates = 10000
	runs := 100
	if testing.Short() {
		runs = 10
	}
	slow := func(*acpwire.Bridge) acpwire.Middleware {
		return func(next acpwire.Handler) acpwire.Handler {
			n := 0
			return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
				n++
				if n%997 == 0 {
					time.Sleep(200 * time.Microsecond) // e.g. an audit write
				}
				return next.Handle(ctx, m)
			})
		}
	}
	for run := 0; run < runs; run++ {
		h := newHarness(t, acpwire.Options{}, slow)
		h.FromClient(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s"}}`, run))
		h.AgentGets()
		go func() {
			var b strings.Builder
			for i := 0; i < updates; i++ {
				fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d"}}}}`+"\n", i)
			}
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"result":{"stopReason":"end_turn"}}`+"\n", run)
			h.FromAgent(strings.TrimSuffix(b.String(), "\n"))
		}()
		watchdog := time.AfterFunc(30*time.Second, func() { panic("TestOrdering: stream stalled") })
		for i := 0; i < updates; i++ {
			got := h.ClientGets()
			want := fmt.Sprintf(`"text":"%d"}`, i)
			if !strings.Contains(got, want) {
				t.Fatalf("run %d: message %d out of order: %s", run, i, got)
			}
		}
		watchdog.Stop()
		if got := h.ClientGets(); !strings.Contains(got, `"stopReason":"end_turn"`) {
			t.Fatalf("run %d: expected the prompt response last, got %s", run, got)
		}
	}
}

// TestOversizedLine: a request over the limit is answered with an error
// carrying its id, a response over the limit becomes an error for the
// waiting requester, and the connection survives both.
func TestOversizedLine(t *testing.T) {
	h := newHarness(t, acpwire.Options{MaxLineSize: 1024})
	big := strings.Repeat("a", 2000)
	h.FromClient(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"text":"` + big + `"}}`)
	got := h.ClientGets()
	var resp struct {
		ID    int            `json:"id"`
		Error *acpwire.Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(got), &resp); err != nil || resp.ID != 7 || resp.Error == nil || resp.Error.Code != acpwire.CodeInvalidRequest {
		t.Fatalf("client got %s, want an invalid-request error for id 7", got)
	}
	// The id may also come last.
	h.FromClient(`{"jsonrpc":"2.0","method":"x","params":{"t":"` + big + `"},"id":"late"}`)
	if got := h.ClientGets(); !strings.Contains(got, `"id":"late"`) || !strings.Contains(got, `"error"`) {
		t.Fatalf("client got %s, want an error for id \"late\"", got)
	}
	// A response too big for the limit: the agent asked, the client answered.
	h.FromAgent(`{"jsonrpc":"2.0","id":3,"method":"fs/read_text_file","params":{"path":"/a"}}`)
	h.ClientGets()
	h.FromClient(`{"jsonrpc":"2.0","id":3,"result":{"content":"` + big + `"}}`)
	if got := h.AgentGets(); !strings.Contains(got, `"id":3`) || !strings.Contains(got, `"error"`) {
		t.Fatalf("agent got %s, want an error response for id 3", got)
	}
	// The session goes on.
	h.FromClient(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`)
	if got := h.AgentGets(); !strings.Contains(got, "session/cancel") {
		t.Fatalf("agent got %s after the oversized lines", got)
	}
}

// TestOversizedResponseKeepsItsTurn: the error that replaces a response
// over the limit reaches the requester after every message the peer sent
// before it (the updates of a turn before the prompt's answer), and the
// id it carries is intact although the bridge reads on meanwhile.
func TestOversizedResponseKeepsItsTurn(t *testing.T) {
	for run := range 20 {
		h := newHarness(t, acpwire.Options{MaxLineSize: 4096})
		h.FromClient(`{"jsonrpc":"2.0","id":"prompt-1","method":"session/prompt","params":{"sessionId":"s"}}`)
		h.AgentGets()
		var b strings.Builder
		const updates = 2000
		for i := range updates {
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d"}}}}`+"\n", i)
		}
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":"prompt-1","result":{"stopReason":"end_turn","_meta":{"pad":"%s"}}}`+"\n", strings.Repeat("p", 5000))
		for i := range updates {
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"after %d"}}}}`+"\n", i)
		}
		go h.FromAgent(strings.TrimSuffix(b.String(), "\n"))
		for i := range updates {
			if got := h.ClientGets(); !strings.Contains(got, fmt.Sprintf(`"text":"%d"}`, i)) {
				t.Fatalf("run %d: message %d: got %.200s", run, i, got)
			}
		}
		if got := h.ClientGets(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"prompt-1","error":{`) {
			t.Fatalf("run %d: after the updates, got %.200s; want the error for prompt-1", run, got)
		}
		for i := range updates {
			if got := h.ClientGets(); !strings.Contains(got, fmt.Sprintf(`"text":"after %d"}`, i)) {
				t.Fatalf("run %d: message %d after the response: got %.200s", run, i, got)
			}
		}
	}
}

// TestHandledMessageNotKept: once a message is written, the bridge keeps
// nothing of it while it waits for more input, so a large message's memory
// is free before the next one arrives (three 64 MiB messages in a row must
// not hold two at once). The message here is a lone one, which the reader
// dispatches itself, and longer than a read block, so its bytes are an
// allocation of their own.
func TestHandledMessageNotKept(t *testing.T) {
	var raw weak.Pointer[byte]
	seen := make(chan struct{})
	watch := mw(func(_ *acpwire.Bridge, next acpwire.Handler, ctx context.Context, m *acpwire.Message) error {
		if m.Method == "_big" {
			raw = weak.Make(&m.Raw[0])
			close(seen)
		}
		return next.Handle(ctx, m)
	})
	h := newHarness(t, acpwire.Options{}, watch)
	big := `{"jsonrpc":"2.0","method":"_big","params":{"text":"` + strings.Repeat("x", 3*acpwire.BlockSize) + `"}}`
	h.FromClient(big)
	if got := h.AgentGets(); got != big {
		t.Fatalf("agent got %d bytes, want the %d sent", len(got), len(big))
	}
	<-seen
	// The forwarding goroutine may still be returning from the write; the
	// deadline bounds a bridge that never lets go, it is not a wait.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.GC(); raw.Value() != nil; runtime.GC() {
		if time.Now().After(deadline) {
			t.Fatal("the bridge still holds a message it has written while it waits for the next")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestOversizedAfterMessageFlushed: a message and a line over the limit
// read together (the oversized one last) — the message still reaches its
// peer at once, although the refusal writes nothing toward that peer.
func TestOversizedAfterMessageFlushed(t *testing.T) {
	big := strings.Repeat("b", 500)
	for _, c := range []struct{ name, over string }{
		{"notification", `{"jsonrpc":"2.0","method":"_x/big","params":{"t":"` + big + `"}}`},
		{"request", `{"jsonrpc":"2.0","id":9,"method":"_x/big","params":{"t":"` + big + `"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, acpwire.Options{MaxLineSize: 200})
			h.Timeout = 3 * time.Second
			note := `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`
			h.FromClient(note + "\n" + c.over)
			if got := h.AgentGets(); got != note {
				t.Fatalf("agent got %s", got)
			}
		})
	}
}

// TestOversizedResponseToCall: the answer to one of the bridge's own calls
// is over the limit; the call gets an error at once rather than waiting.
func TestOversizedResponseToCall(t *testing.T) {
	h := newHarness(t, acpwire.Options{MaxLineSize: 300})
	done := h.callAsync(acpwire.ClientToAgent, "_x/ask", nil)
	req := h.AgentGets()
	var r struct{ ID json.RawMessage }
	if err := json.Unmarshal([]byte(req), &r); err != nil {
		t.Fatal(err)
	}
	h.FromAgent(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"result":{"t":"` + strings.Repeat("r", 1000) + `"}}`)
	select {
	case res := <-done:
		var e *acpwire.Error
		if !errors.As(res.err, &e) || e.Code != acpwire.CodeInvalidRequest {
			t.Fatalf("Call returned %s, %v; want the size error", res.raw, res.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Call still waiting after its answer was refused as too large")
	}
	// Nothing of it reached the client.
	h.FromAgent(`{"jsonrpc":"2.0","method":"_x/after"}`)
	if got := h.ClientGets(); !strings.Contains(got, "_x/after") {
		t.Fatalf("client got %s", got)
	}
}

// TestLateCallResponseNotForwarded: a bridge call that gave up waiting
// (its context ended) gets its answer late; the answer is the bridge's and
// never reaches the other peer.
func TestLateCallResponseNotForwarded(t *testing.T) {
	h := newHarness(t, acpwire.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.b.Call(ctx, acpwire.ClientToAgent, "_x/ask", nil)
		done <- err
	}()
	req := h.AgentGets()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call returned %v, want context.Canceled", err)
	}
	var r struct{ ID json.RawMessage }
	if err := json.Unmarshal([]byte(req), &r); err != nil {
		t.Fatal(err)
	}
	h.FromAgent(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"result":{}}`)
	h.FromAgent(`{"jsonrpc":"2.0","method":"_x/after"}`)
	if got := h.ClientGets(); !strings.Contains(got, "_x/after") {
		t.Fatalf("client got %s; want the late answer dropped", got)
	}
}

// Test64MiBLine: a message of exactly the default limit passes intact.
func Test64MiBLine(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates several hundred MiB")
	}
	prefix := `{"jsonrpc":"2.0","method":"session/update","params":{"text":"`
	suffix := `"}}`
	body := strings.Repeat("x", acpwire.DefaultMaxLineSize-len(prefix)-len(suffix))
	line := prefix + body + suffix
	if len(line) != acpwire.DefaultMaxLineSize {
		t.Fatalf("test line is %d bytes", len(line))
	}
	h := newHarness(t, acpwire.Options{})
	h.Timeout = 2 * time.Minute // the race detector makes this slow
	go h.FromAgent(line)
	got := h.ClientGets()
	if got != line {
		t.Fatalf("64 MiB line changed: got %d bytes", len(got))
	}
	// One byte more is refused; the line after it still passes. Both go in
	// one write: two concurrent writers could interleave on the pipe.
	go h.FromAgent(prefix + body + "x" + suffix + "\n" + `{"jsonrpc":"2.0","method":"after"}`)
	if got := h.ClientGets(); got != `{"jsonrpc":"2.0","method":"after"}` {
		t.Fatalf("after an oversized line the client got %.100s", got)
	}
}

// mw adapts a function to the harness's middleware constructor.
func mw(f func(s *acpwire.Bridge, next acpwire.Handler, ctx context.Context, m *acpwire.Message) error) func(*acpwire.Bridge) acpwire.Middleware {
	return func(b *acpwire.Bridge) acpwire.Middleware {
		return func(next acpwire.Handler) acpwire.Handler {
			return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error { return f(b, next, ctx, m) })
		}
	}
}

func TestMiddlewarePatchKeepsOtherBytes(t *testing.T) {
	h := newHarness(t, acpwire.Options{}, mw(func(_ *acpwire.Bridge, next acpwire.Handler, ctx context.Context, m *acpwire.Message) error {
		if m.IsRequest("initialize") {
			p, err := m.Patch([]byte(`false`), "params", "clientCapabilities", "terminal")
			if err != nil {
				return err
			}
			if p.Original != m {
				t.Errorf("replacement does not link to the original")
			}
			return next.Handle(ctx, p)
		}
		return next.Handle(ctx, m)
	}))
	h.FromClient(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1, "clientCapabilities":{"terminal":true,"fs":{"readTextFile":true}},"n":12345678901234567890,"_meta":{"b":1,"a":2}}}`)
	want := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1, "clientCapabilities":{"terminal":false,"fs":{"readTextFile":true}},"n":12345678901234567890,"_meta":{"b":1,"a":2}}}`
	if got := h.AgentGets(); got != want {
		t.Fatalf("patched message:\n got %s\nwant %s", got, want)
	}
}

// TestExactlyOneResponse covers the ways a middleware can end a request.
func TestExactlyOneResponse(t *testing.T) {
	h := newHarness(t, acpwire.Options{}, mw(func(b *acpwire.Bridge, next acpwire.Handler, ctx context.Context, m *acpwire.Message) error {
		switch {
		case m.IsRequest("local/answer"):
			return b.Reply(m, map[string]any{"answered": "locally"})
		case m.IsRequest("local/drop"):
			return nil // dropped: the core must answer
		case m.IsRequest("local/fail"):
			return acpwire.Errorf(acpwire.CodeInvalidParams, "refused by policy")
		case m.IsRequest("local/answer-after-forward"):
			if err := next.Handle(ctx, m); err != nil {
				return err
			}
			return b.Reply(m, "bridge answered first")
		case m.IsRequest("local/answer-twice"):
			if err := b.Reply(m, 1); err != nil {
				return err
			}
			if err := b.Reply(m, 2); err == nil {
				t.Error("second Reply succeeded")
			}
			return nil
		}
		return next.Handle(ctx, m)
	}))
	cases := []struct {
		name, method, want string
	}{
		{"reply", "local/answer", `{"jsonrpc":"2.0","id":1,"result":{"answered":"locally"}}`},
		{"drop", "local/drop", `"code":-32603`},
		{"error", "local/fail", `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"refused by policy"}}`},
		{"twice", "local/answer-twice", `{"jsonrpc":"2.0","id":4,"result":1}`},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h.FromClient(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, i+1, c.method))
			if got := h.ClientGets(); !strings.Contains(got, c.want) || !strings.Contains(got, fmt.Sprintf(`"id":%d`, i+1)) {
				t.Fatalf("client got %s, want %s", got, c.want)
			}
		})
	}
	t.Run("answer-after-forward", func(t *testing.T) {
		h.FromClient(`{"jsonrpc":"2.0","id":9,"method":"local/answer-after-forward"}`)
		if got := h.AgentGets(); !strings.Contains(got, `"id":9`) {
			t.Fatalf("agent got %s", got)
		}
		if got := h.ClientGets(); got != `{"jsonrpc":"2.0","id":9,"result":"bridge answered first"}` {
			t.Fatalf("client got %s", got)
		}
		// The agent's own answer must not reach the client a second time.
		h.FromAgent(`{"jsonrpc":"2.0","id":9,"result":"agent answer"}`)
		h.FromAgent(`{"jsonrpc":"2.0","method":"marker"}`)
		if got := h.ClientGets(); got != `{"jsonrpc":"2.0","method":"marker"}` {
			t.Fatalf("client got %s, want the agent's duplicate answer dropped", got)
		}
	})
	t.Run("nothing reached the agent", func(t *testing.T) {
		h.FromClient(`{"jsonrpc":"2.0","method":"marker2"}`)
		if got := h.AgentGets(); got != `{"jsonrpc":"2.0","method":"marker2"}` {
			t.Fatalf("agent got %s: a locally handled request leaked", got)
		}
	})
}

// TestBridgeCall: requests the bridge injects carry ids that cannot collide
// with the peers', and their responses are consumed, never forwarded.
func TestBridgeCall(t *testing.T) {
	h := newHarness(t, acpwire.Options{})
	// The client has a request pending with id 1 toward the agent.
	h.FromClient(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}`)
	h.AgentGets()
	done := h.callAsync(acpwire.ClientToAgent, "session/new", map[string]any{"cwd": "/w"})
	got := h.AgentGets()
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal([]byte(got), &req); err != nil || req.Method != "session/new" {
		t.Fatalf("agent got %s", got)
	}
	if string(req.ID) == "1" {
		t.Fatal("bridge reused a peer's id")
	}
	h.FromAgent(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"sessionId":"new"}}`)
	r := <-done
	if r.err != nil || string(r.raw) != `{"sessionId":"new"}` {
		t.Fatalf("Call = %s, %v", r.raw, r.err)
	}
	// The response to the client's own request still flows, and is the
	// first thing the client sees: the bridge's response was consumed.
	h.FromAgent(`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`)
	if got := h.ClientGets(); got != `{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}` {
		t.Fatalf("client got %s", got)
	}
	// An error response comes back as *Error.
	done = h.callAsync(acpwire.AgentToClient, "fs/read_text_file", map[string]any{"path": "/x"})
	got = h.ClientGets()
	json.Unmarshal([]byte(got), &req)
	h.FromClient(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32002,"message":"not found"}}`)
	r = <-done
	if !errors.Is(r.err, &acpwire.Error{Code: acpwire.CodeResourceNotFound}) {
		t.Fatalf("Call error = %v, want resource not found", r.err)
	}
}

func TestNotifyBothWays(t *testing.T) {
	h := newHarness(t, acpwire.Options{})
	if err := h.b.Notify(acpwire.AgentToClient, "session/update", json.RawMessage(`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"from bridge"}}}`)); err != nil {
		t.Fatal(err)
	}
	if got := h.ClientGets(); !strings.Contains(got, "from bridge") {
		t.Fatalf("client got %s", got)
	}
	if err := h.b.Notify(acpwire.ClientToAgent, "session/cancel", map[string]string{"sessionId": "s"}); err != nil {
		t.Fatal(err)
	}
	if got := h.AgentGets(); got != `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}` {
		t.Fatalf("agent got %s", got)
	}
}

func TestInitializeTimeout(t *testing.T) {
	h := newHarness(t, acpwire.Options{InitializeTimeout: 50 * time.Millisecond})
	h.FromClient(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	h.AgentGets()
	got := h.ClientGets()
	if !strings.Contains(got, `"id":0`) || !strings.Contains(got, "did not answer initialize") {
		t.Fatalf("client got %s", got)
	}
	// A late answer is not delivered twice.
	h.FromAgent(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
	h.FromAgent(`{"jsonrpc":"2.0","method":"marker"}`)
	if got := h.ClientGets(); got != `{"jsonrpc":"2.0","method":"marker"}` {
		t.Fatalf("client got %s", got)
	}
}

func TestPreemptSeesCancelAtOnce(t *testing.T) {
	for _, dir := range []acpwire.Direction{acpwire.ClientToAgent, acpwire.AgentToClient} {
		t.Run(dir.String(), func(t *testing.T) {
			release, holding := make(chan struct{}), make(chan struct{})
			var once sync.Once
			block := mw(func(_ *acpwire.Bridge, next acpwire.Handler, ctx context.Context, m *acpwire.Message) error {
				if m.IsRequest("slow") {
					close(holding)
					select {
					case <-release:
					case <-time.After(5 * time.Second):
						t.Error("the cancel was not seen while a middleware held the request")
					}
				}
				return next.Handle(ctx, m)
			})
			b := acpwire.New(acpwire.Options{})
			b.Use(preempting{block(b), func(m *acpwire.Message) { once.Do(func() { close(release) }) }})
			h := newHarnessFor(t, b)
			send, gets := h.FromClient, h.AgentGets
			cancel := `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`
			if dir == acpwire.AgentToClient {
				send, gets = h.FromAgent, h.ClientGets
				cancel = `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"slow"}`)
			// The cancel comes only once the middleware holds the
			// request: the reader must still be reading then.
			select {
			case <-holding:
			case <-time.After(10 * time.Second):
				t.Fatal("the middleware never saw the slow request")
			}
			send(cancel)
			// The preempt hook released the slow handler; order is kept.
			if got := gets(); !strings.Contains(got, `"slow"`) {
				t.Fatalf("peer got %s first", got)
			}
			if got := gets(); got != cancel {
				t.Fatalf("peer got %s second", got)
			}
		})
	}
}

func TestRecordTranscript(t *testing.T) {
	var rec strings.Builder
	var mu sync.Mutex
	h := newHarness(t, acpwire.Options{Record: lockedWriter{&mu, &rec}})
	h.FromClient(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	h.AgentGets()
	h.FromAgent(`{"jsonrpc":"2.0","id":1,"result":{"n":1.50}}`)
	h.ClientGets()
	h.Stop()
	mu.Lock()
	lines := strings.Split(strings.TrimSpace(rec.String()), "\n")
	mu.Unlock()
	if len(lines) != 2 {
		t.Fatalf("recorded %d lines: %q", len(lines), rec.String())
	}
	for i, want := range []struct{ dir, msg string }{
		{"client_to_agent", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`},
		{"agent_to_client", `{"jsonrpc":"2.0","id":1,"result":{"n":1.50}}`},
	} {
		var entry struct {
			TS  string          `json:"ts"`
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &entry); err != nil {
			t.Fatal(err)
		}
		if _, err := time.Parse(time.RFC3339Nano, entry.TS); err != nil {
			t.Errorf("line %d: ts %q: %v", i, entry.TS, err)
		}
		if entry.Dir != want.dir || string(entry.Msg) != want.msg {
			t.Errorf("line %d = %s %s, want %s %s", i, entry.Dir, entry.Msg, want.dir, want.msg)
		}
	}
}

// TestRecordWhatTheBridgeHeldBack: messages a peer sent that the bridge did
// not pass on with their own bytes are in the recording too, marked with
// what the bridge did instead, so a recording answers "what did the agent
// send?" even when a middleware answered, replaced or dropped it.
func TestRecordWhatTheBridgeHeldBack(t *testing.T) {
	var rec strings.Builder
	var mu sync.Mutex
	h := newHarness(t, acpwire.Options{Record: lockedWriter{&mu, &rec}}, mw(func(b *acpwire.Bridge, next acpwire.Handler, ctx context.Context, m *acpwire.Message) error {
		switch {
		case m.IsRequest("fs/read_text_file"):
			return b.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams, "denied"))
		case m.IsRequest("terminal/create"):
			return acpwire.Errorf(acpwire.CodeInvalidParams, "refused by returning an error")
		case m.IsNotification("drop/me"):
			return nil
		case m.IsNotification("session/update"):
			p, err := m.Patch([]byte(`"changed"`), "params", "x")
			if err != nil {
				return err
			}
			return next.Handle(ctx, p)
		case m.IsRequest("session/prompt"):
			go b.Call(context.Background(), acpwire.AgentToClient, "_bridge/ping", map[string]any{})
		}
		return next.Handle(ctx, m)
	}))
	h.FromAgent(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"path":"/etc/shadow"}}`)
	h.AgentGets() // the bridge's error answer
	h.FromAgent(`{"jsonrpc":"2.0","id":8,"method":"terminal/create","params":{"command":"rm"}}`)
	if got := h.AgentGets(); !strings.Contains(got, "refused by returning an error") {
		t.Fatalf("agent got %s", got)
	}
	h.FromAgent(`{"jsonrpc":"2.0","method":"drop/me"}`)
	h.FromAgent(`{"jsonrpc":"2.0","method":"session/update","params":{"x":"orig"}}`)
	if got := h.ClientGets(); !strings.Contains(got, `"changed"`) {
		t.Fatalf("client got %s", got)
	}
	h.FromClient(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}`)
	h.AgentGets()
	call := h.ClientGets()
	id, _ := rawjson.Get([]byte(call), "id")
	h.FromClient(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{}}`)
	h.FromClient(`{"jsonrpc":"2.0","method":"session/cancel","params":{}}`)
	h.AgentGets()
	h.Stop()

	type entry struct {
		TS     string          `json:"ts"`
		Dir    string          `json:"dir"`
		Msg    json.RawMessage `json:"msg"`
		Bridge string          `json:"bridge"`
	}
	var held []entry
	var denialTS string // when the agent got the bridge's answer
	mu.Lock()
	for _, line := range strings.Split(strings.TrimSpace(rec.String()), "\n") {
		var e entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if e.Bridge != "" {
			held = append(held, e)
		}
		if strings.Contains(string(e.Msg), `"denied"`) {
			denialTS = e.TS
		}
	}
	mu.Unlock()
	// A held-back entry carries the time its message arrived, so sorting by
	// ts puts the agent's request before the answer the bridge gave it.
	if len(held) == 0 || denialTS == "" {
		t.Fatalf("no held-back entries or no answer in %s", rec.String())
	}
	// Each is written once its fate is settled, which on a loaded machine
	// need not be in the order the messages arrived: compare them in
	// that order.
	sort.SliceStable(held, func(i, j int) bool { return parseTS(t, held[i].TS).Before(parseTS(t, held[j].TS)) })
	if at, ans := parseTS(t, held[0].TS), parseTS(t, denialTS); at.After(ans) {
		t.Errorf("held-back request at %v, after the bridge's answer at %v", at, ans)
	}
	want := []entry{
		{Dir: "agent_to_client", Msg: json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"path":"/etc/shadow"}}`), Bridge: "answered"},
		{Dir: "agent_to_client", Msg: json.RawMessage(`{"jsonrpc":"2.0","id":8,"method":"terminal/create","params":{"command":"rm"}}`), Bridge: "answered"},
		{Dir: "agent_to_client", Msg: json.RawMessage(`{"jsonrpc":"2.0","method":"drop/me"}`), Bridge: "dropped"},
		{Dir: "agent_to_client", Msg: json.RawMessage(`{"jsonrpc":"2.0","method":"session/update","params":{"x":"orig"}}`), Bridge: "replaced"},
		{Dir: "client_to_agent", Msg: json.RawMessage(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{}}`), Bridge: "consumed"},
	}
	if len(held) != len(want) {
		t.Fatalf("held-back entries:\n%v\nwant\n%v", held, want)
	}
	for i := range want {
		if held[i].Dir != want[i].Dir || string(held[i].Msg) != string(want[i].Msg) || held[i].Bridge != want[i].Bridge {
			t.Errorf("entry %d = %s %s %s, want %s %s %s", i, held[i].Dir, held[i].Msg, held[i].Bridge, want[i].Dir, want[i].Msg, want[i].Bridge)
		}
	}
}

func parseTS(t *testing.T, s string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("ts %q: %v", s, err)
	}
	return ts
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *strings.Builder
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// TestCallThenRunsBeforeNextMessage: the handler of a CallThen response runs
// before the agent's next message reaches middleware, so state it sets up
// (a session id mapping) is there for that message.
func TestCallThenRunsBeforeNextMessage(t *testing.T) {
	for i := 0; i < 50; i++ {
		var mu sync.Mutex
		mapped := ""
		seen := make(chan string, 1)
		check := mw(func(_ *acpwire.Bridge, next acpwire.Handler, ctx context.Context, m *acpwire.Message) error {
			if m.IsNotification("session/update") {
				mu.Lock()
				seen <- mapped
				mu.Unlock()
			}
			return next.Handle(ctx, m)
		})
		h := newHarness(t, acpwire.Options{}, check)
		done := make(chan error, 1)
		go func() {
			done <- h.b.CallThen(context.Background(), acpwire.ClientToAgent, "session/new", map[string]string{"cwd": "/w"},
				func(result json.RawMessage, err error) error {
					if err != nil {
						return err
					}
					time.Sleep(time.Millisecond) // a slow handler must still come first
					mu.Lock()
					mapped = string(result)
					mu.Unlock()
					return nil
				})
		}()
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal([]byte(h.AgentGets()), &req)
		// The response and the next notification arrive together.
		h.FromAgent(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"sessionId":"new"}}` + "\n" +
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"new"}}`)
		if got := <-seen; got != `{"sessionId":"new"}` {
			t.Fatalf("run %d: the next message was handled before the response's handler ran (saw %q)", i, got)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		h.ClientGets()
	}
}

// TestReadBlocksReused: with no middleware, or only middleware that keeps
// nothing, the bridge reads into a few blocks it reuses, and every message
// still arrives with its own bytes; a request the bridge keeps (to answer it
// if the peer goes away) is not read over. Middleware that may keep
// messages gets fresh blocks.
func TestReadBlocksReused(t *testing.T) {
	pass := func(*acpwire.Bridge) acpwire.Middleware {
		return func(next acpwire.Handler) acpwire.Handler { return next }
	}
	cases := []struct {
		name      string
		retaining bool
		mw        []func(*acpwire.Bridge) acpwire.Middleware
	}{
		{name: "no middleware"},
		{name: "non-retaining middleware", mw: []func(*acpwire.Bridge) acpwire.Middleware{pass}},
		{name: "middleware that may keep messages", retaining: true, mw: []func(*acpwire.Bridge) acpwire.Middleware{pass}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(acpwire.PoisonBlocksEnv, "1")
			b := acpwire.New(acpwire.Options{})
			for _, mw := range c.mw {
				if c.retaining {
					b.Use(mw(b))
				} else {
					b.UseNonRetaining(mw(b))
				}
			}
			h := newHarnessFor(t, b)
			const request = `{"jsonrpc":"2.0","id":"kept-request-7","method":"fs/read_text_file","params":{"sessionId":"s","path":"/a"}}`
			h.FromAgent(request)
			if got := h.ClientGets(); got != request {
				t.Fatalf("client got %s", got)
			}
			const updates = 3000 // about 8 MB: some 120 blocks' worth
			lines := make([]string, updates)
			for i := range lines {
				text := strings.Repeat(string(rune('a'+i%26)), 100+(i*7919)%5000)
				lines[i] = fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d %s"}}}}`, i, text)
			}
			stream := strings.Join(lines, "\n") + "\n"
			total := len(stream)
			// At most the forwarding queue's worth of messages (of at most
			// 5.2 KB) wait in blocks: a run of bytes that may start and end
			// in blocks it fills in part, so one block more than it fills;
			// plus the block being read, and the first block, which the
			// request the bridge still tracks keeps.
			const maxBlocks = (256*5200+acpwire.BlockSize-1)/acpwire.BlockSize + 3
			go h.FromAgent(strings.TrimSuffix(stream, "\n"))
			for i, want := range lines {
				if got := h.ClientGets(); got != want {
					t.Fatalf("message %d changed in the bridge:\n got %.120s\nwant %.120s", i, got, want)
				}
			}
			made, reused := acpwire.ReadBlocks(h.Session(), acpwire.AgentToClient)
			switch {
			case c.retaining && reused:
				t.Fatal("read blocks are reused although a middleware may keep messages")
			case !c.retaining && !reused:
				t.Fatal("read blocks are not reused")
			case !c.retaining && made > maxBlocks:
				t.Fatalf("%d read blocks allocated for %d messages (%d blocks' worth); want at most %d reused ones", made, updates, total/acpwire.BlockSize, maxBlocks)
			}
			// The request the bridge still tracks kept its bytes: its
			// id comes back intact in the bridge's answer.
			if n := b.FailPending(acpwire.AgentToClient, acpwire.Errorf(acpwire.CodeInternalError, "client gone")); n != 1 {
				t.Fatalf("FailPending answered %d requests, want 1", n)
			}
			if got := h.AgentGets(); !strings.Contains(got, `"id":"kept-request-7"`) {
				t.Fatalf("answer to the kept request: %s", got)
			}
		})
	}
}

// preempting is a Middleware with a preempt hook: a Preempter.
type preempting struct {
	acpwire.Middleware
	preempt func(*acpwire.Message)
}

func (p preempting) Preempt(m *acpwire.Message) { p.preempt(m) }

// TestCallThenOutlivesCancel: a response whose handler has run is the
// call's outcome even when the call's context ends at that moment (here,
// from inside the handler): the caller must not take for failed a call
// whose handler set up state (a rollover's session mapping).
func TestCallThenOutlivesCancel(t *testing.T) {
	for i := 0; i < 20; i++ {
		h := newHarness(t, acpwire.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- h.b.CallThen(ctx, acpwire.ClientToAgent, "session/new", map[string]string{"cwd": "/w"},
				func(json.RawMessage, error) error {
					cancel()
					time.Sleep(time.Millisecond) // the caller sees the cancellation first
					return nil
				})
		}()
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal([]byte(h.AgentGets()), &req)
		h.FromAgent(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"sessionId":"new"}}`)
		if err := <-done; err != nil {
			t.Fatalf("run %d: the handler ran, yet the call failed: %v", i, err)
		}
		cancel()
	}
}
