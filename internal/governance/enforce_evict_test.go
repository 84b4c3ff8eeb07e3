package governance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// sentMsg is one message the enforcer sent or answered with.
type sentMsg struct {
	dir     acpwire.Direction
	method  string // of a notification
	session string // its params.sessionId
	code    int    // of an error answer
}

// recordingSender is a Sender with no peers that records what the
// enforcer says.
type recordingSender struct {
	mu   sync.Mutex
	sent []sentMsg
}

func (s *recordingSender) add(m sentMsg) {
	s.mu.Lock()
	s.sent = append(s.sent, m)
	s.mu.Unlock()
}

func (s *recordingSender) Reply(*acpwire.Message, any) error { return nil }
func (s *recordingSender) ReplyError(m *acpwire.Message, e *acpwire.Error) error {
	s.add(sentMsg{dir: m.Dir.Reverse(), method: m.Method, code: e.Code})
	return nil
}
func (s *recordingSender) Notify(dir acpwire.Direction, method string, params any) error {
	b, _ := json.Marshal(params)
	var p struct {
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(b, &p)
	s.add(sentMsg{dir: dir, method: method, session: p.SessionID})
	return nil
}
func (s *recordingSender) Call(context.Context, acpwire.Direction, string, any) (json.RawMessage, error) {
	return nil, errors.New("no peer")
}
func (s *recordingSender) CallThen(_ context.Context, _ acpwire.Direction, _ string, _ any, then func(json.RawMessage, error) error) error {
	return then(nil, errors.New("no peer"))
}

// take returns what was sent since the last take.
func (s *recordingSender) take() []sentMsg {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.sent
	s.sent = nil
	return out
}

// sessionDriver drives an Enforcer's middleware without pipes, as IDE and
// agent, through whole sessions.
type sessionDriver struct {
	t         testing.TB
	x         *Enforcer
	h         acpwire.Handler
	send      *recordingSender
	rec       *fakeRecorder
	root      string
	forwarded int
	id        int
}

func newSessionDriver(t *testing.T, maxSessions int, record bool) *sessionDriver {
	t.Helper()
	e, root := testEngine(t)
	d := &sessionDriver{t: t, send: &recordingSender{}, root: root}
	opts := EnforceOptions{Engine: e, Sender: d.send, MaxSessions: maxSessions}
	if record {
		d.rec = &fakeRecorder{}
		opts.Audit = d.rec
	}
	d.x = NewEnforcer(opts)
	d.h = d.x.Middleware()(acpwire.HandlerFunc(func(context.Context, *acpwire.Message) error { d.forwarded++; return nil }))
	return d
}

// handle passes line through the middleware and reports whether it was
// forwarded. A response answers req.
func (d *sessionDriver) handle(dir acpwire.Direction, line string, req *acpwire.Message) bool {
	d.t.Helper()
	m, err := acpwire.Parse(dir, []byte(line))
	if err != nil {
		d.t.Fatal(err)
	}
	m.Request = req
	before := d.forwarded
	if err := d.h.Handle(context.Background(), m); err != nil {
		d.t.Fatal(err)
	}
	return d.forwarded > before
}

// request sends a request from dir and returns it, for its response.
func (d *sessionDriver) request(dir acpwire.Direction, method, params string) (*acpwire.Message, bool) {
	d.t.Helper()
	d.id++
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, d.id, method, params)
	m, _ := acpwire.Parse(dir, []byte(line))
	return m, d.handle(dir, line, nil)
}

// respond answers req with result.
func (d *sessionDriver) respond(req *acpwire.Message, result string) {
	d.t.Helper()
	d.handle(req.Dir.Reverse(), fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result), req)
}

// open opens session sid with session/new.
func (d *sessionDriver) open(sid string) {
	d.t.Helper()
	req, ok := d.request(acpwire.ClientToAgent, "session/new", fmt.Sprintf(`{"cwd":%q,"mcpServers":[]}`, d.root))
	if !ok {
		d.t.Fatalf("session/new for %s not forwarded", sid)
	}
	d.respond(req, fmt.Sprintf(`{"sessionId":%q}`, sid))
}

// load loads session sid with session/load.
func (d *sessionDriver) load(sid string) {
	d.t.Helper()
	req, ok := d.request(acpwire.ClientToAgent, "session/load", fmt.Sprintf(`{"sessionId":%q,"cwd":%q,"mcpServers":[]}`, sid, d.root))
	if !ok {
		d.t.Fatalf("session/load of %s not forwarded", sid)
	}
	d.respond(req, `{}`)
}

// prompt starts a turn in sid; it returns the request (nil when refused).
func (d *sessionDriver) prompt(sid string) *acpwire.Message {
	d.t.Helper()
	req, ok := d.request(acpwire.ClientToAgent, "session/prompt", fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"text","text":"go"}]}`, sid))
	if !ok {
		return nil
	}
	return req
}

// chunk sends a text chunk in sid and reports whether it was forwarded.
func (d *sessionDriver) chunk(sid string) bool {
	d.t.Helper()
	return d.handle(acpwire.AgentToClient, fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`, sid), nil)
}

// agentLines are what an agent tries in a session, %[1]s its id and
// %[2]s the workspace root.
var agentLines = []struct{ name, line string }{
	{"text chunk", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%[1]q,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`},
	{"tool_call", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%[1]q,"update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read","kind":"read","status":"pending","locations":[{"path":"%[2]s/src/a.go"}]}}}`},
	{"tool_call_update", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%[1]q,"update":{"sessionUpdate":"tool_call_update","toolCallId":"stopped","status":"completed","content":[{"type":"content","content":{"type":"text","text":"SECRET"}}]}}}`},
	{"read", `{"jsonrpc":"2.0","id":900,"method":"fs/read_text_file","params":{"sessionId":%[1]q,"path":"%[2]s/src/a.go"}}`},
	{"write", `{"jsonrpc":"2.0","id":901,"method":"fs/write_text_file","params":{"sessionId":%[1]q,"path":"%[2]s/src/a.go","content":"x"}}`},
	{"terminal", `{"jsonrpc":"2.0","id":902,"method":"terminal/create","params":{"sessionId":%[1]q,"command":"ls"}}`},
	{"terminal output", `{"jsonrpc":"2.0","id":903,"method":"terminal/output","params":{"sessionId":%[1]q,"terminalId":"term-1"}}`},
	{"permission", `{"jsonrpc":"2.0","id":904,"method":"session/request_permission","params":{"sessionId":%[1]q,"toolCall":{"toolCallId":"p1","title":"ls","kind":"execute","rawInput":{"command":"ls"}},"options":[{"optionId":"y","name":"Allow","kind":"allow_once"}]}}`},
}

// TestSessionEviction: past MaxSessions the session the IDE used least
// recently is forgotten, and to the bridge it is then one the IDE never
// opened: nothing the agent sends in it reaches the IDE, the IDE's prompt
// in it is refused, and only the IDE's session/load opens it again.
func TestSessionEviction(t *testing.T) {
	d := newSessionDriver(t, 2, true)
	d.open("s1")
	// A stopped call and a terminal in s1, so that there is something to
	// forget.
	if d.handle(acpwire.AgentToClient, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"stopped","title":"x","kind":"execute","status":"pending","rawInput":{"command":"curl http://x"}}}}`, nil) {
		t.Fatal("a denied tool call was forwarded")
	}
	treq, _ := acpwire.Parse(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","id":"tc","method":"terminal/create","params":{"sessionId":"s1","command":"ls"}}`))
	d.respond(treq, `{"terminalId":"term-1"}`)
	d.open("s2")
	d.open("s3") // s1 is the least recently used
	d.x.mu.Lock()
	_, kept := d.x.sessions["s1"]
	calls, stopped, terms := len(d.x.calls), len(d.x.stopped), len(d.x.terminals)
	d.x.mu.Unlock()
	if d.x.opened.has("s1") || kept || calls+stopped+terms != 0 {
		t.Fatalf("after eviction: s1 open %v, state kept %v, %d calls, %d stopped, %d terminals", d.x.opened.has("s1"), kept, calls, stopped, terms)
	}
	if evs := d.rec.find("session.evicted", ""); len(evs) != 1 || evs[0].ev.Subject.Ref != "s1" {
		t.Fatalf("session.evicted records: %+v", evs)
	}
	for _, tt := range agentLines {
		t.Run("evicted/"+tt.name, func(t *testing.T) {
			d.t = t
			if d.handle(acpwire.AgentToClient, fmt.Sprintf(tt.line, "s1", d.root), nil) {
				t.Errorf("the agent's %s in a forgotten session reached the IDE", tt.name)
			}
		})
	}
	d.t = t
	// An answer naming it, to no session/new of the IDE, opens nothing.
	d.handle(acpwire.AgentToClient, `{"jsonrpc":"2.0","id":905,"result":{"sessionId":"s1"}}`, nil)
	if d.x.opened.has("s1") {
		t.Fatal("the agent opened a forgotten session")
	}
	d.send.take()
	if d.prompt("s1") != nil {
		t.Fatal("the IDE's prompt in a forgotten session reached the agent")
	}
	if got := d.send.take(); len(got) != 1 || got[0].code != acpwire.CodeResourceNotFound {
		t.Fatalf("the IDE got %+v, want one -32002 answer", got)
	}
	// Only the IDE opens it again; the calls it had are judged afresh.
	d.load("s1")
	if !d.chunk("s1") {
		t.Fatal("a chunk in a session the IDE loaded again was not forwarded")
	}
	if d.x.opened.has("s2") {
		t.Fatal("loading s1 did not forget s2, the least recently used")
	}
	// The call the bridge stopped in s1 is forgotten with it: what the
	// agent says of it now is judged as a new call, and a denied input is
	// stopped again.
	before := len(d.rec.find("policy.violation", ""))
	if d.handle(acpwire.AgentToClient, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"stopped","kind":"execute","status":"in_progress","rawInput":{"command":"curl http://x"}}}}`, nil) {
		t.Fatal("a denied update of a forgotten call reached the IDE")
	}
	if after := len(d.rec.find("policy.violation", "")); after != before+1 {
		t.Fatalf("%d violations recorded for the forgotten call's update, want 1", after-before)
	}
}

// TestSessionEvictionRecency: recency follows the IDE (opening a session,
// prompting in it), never the agent; a turn running in a forgotten session
// is cancelled and the person told there.
func TestSessionEvictionRecency(t *testing.T) {
	tests := []struct {
		name    string
		between func(d *sessionDriver) // after opening s1 and s2
		evicted string
		cancel  bool
	}{
		{"oldest goes", func(d *sessionDriver) {}, "s1", false},
		{"a prompt makes a session recent", func(d *sessionDriver) { d.respond(d.prompt("s1"), `{"stopReason":"end_turn"}`) }, "s2", false},
		{"the agent's activity does not", func(d *sessionDriver) {
			for range 5 {
				d.chunk("s1")
			}
		}, "s1", false},
		{"a running turn is cancelled", func(d *sessionDriver) {
			d.prompt("s1")
			d.respond(d.prompt("s2"), `{"stopReason":"end_turn"}`)
		}, "s1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newSessionDriver(t, 2, true)
			d.open("s1")
			d.open("s2")
			tt.between(d)
			d.send.take()
			d.open("s3")
			for _, sid := range []string{"s1", "s2", "s3"} {
				if want := sid != tt.evicted; d.x.opened.has(sid) != want {
					t.Errorf("%s open: %v, want %v", sid, !want, want)
				}
			}
			var cancelled, told bool
			for _, m := range d.send.take() {
				cancelled = cancelled || m.method == "session/cancel" && m.session == tt.evicted && m.dir == acpwire.ClientToAgent
				told = told || m.method == "session/update" && m.session == tt.evicted && m.dir == acpwire.AgentToClient
			}
			if cancelled != tt.cancel || !told {
				t.Errorf("turn cancelled %v (want %v), person told %v", cancelled, tt.cancel, told)
			}
		})
	}
}

// TestManySessionsBounded: 10,000 sessions opened and used one after
// another (a prompt, a tool call run to its end, a terminal, the turn's
// end), never closed: what the bridge keeps stays under the bound, and the
// heap after the last is what it was after the 2,000th.
func TestManySessionsBounded(t *testing.T) {
	const maxSessions, n = 100, 10_000
	d := newSessionDriver(t, maxSessions, false)
	var heap2k uint64
	for i := range n {
		sid := fmt.Sprintf("sess-%06d", i)
		d.open(sid)
		p := d.prompt(sid)
		d.handle(acpwire.AgentToClient, fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read","kind":"read","status":"in_progress","locations":[{"path":"%s/src/a.go"}]}}}`, sid, d.root), nil)
		d.handle(acpwire.AgentToClient, fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":"tool_call","toolCallId":"c2","title":"x","kind":"execute","status":"pending","rawInput":{"command":"curl http://x"}}}}`, sid), nil)
		tr, _ := acpwire.Parse(acpwire.AgentToClient, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":"t","method":"terminal/create","params":{"sessionId":%q,"command":"ls"}}`, sid)))
		d.respond(tr, `{"terminalId":"term-1"}`)
		d.respond(p, `{"stopReason":"end_turn"}`)
		d.send.take()
		if i%1000 == 999 {
			d.x.mu.Lock()
			counts := []int{d.x.opened.len(), d.x.forgotten.len(), len(d.x.sessions), len(d.x.calls), len(d.x.stopped), len(d.x.terminals), len(d.x.prompts), len(d.x.opens)}
			d.x.mu.Unlock()
			for j, c := range counts {
				if c > 2*maxSessions {
					t.Fatalf("after %d sessions: kept %v (open, forgotten, states, calls, stopped, terminals, prompts, opens); item %d over %d", i+1, counts, j, 2*maxSessions)
				}
			}
		}
		if i == 1999 {
			heap2k = heapInUse()
		}
	}
	heap := heapInUse()
	t.Logf("heap after 2,000 sessions %d KiB, after %d %d KiB", heap2k>>10, n, heap>>10)
	if heap > heap2k+512<<10 {
		t.Fatalf("heap grew from %d KiB after 2,000 sessions to %d KiB after %d", heap2k>>10, heap>>10, n)
	}
}

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestSessionEvictedWhileLoading: a session forgotten while its
// session/load is pending stays forgotten when the load's answer comes,
// and the agent's replay in it is refused.
func TestSessionEvictedWhileLoading(t *testing.T) {
	d := newSessionDriver(t, 1, true)
	req, ok := d.request(acpwire.ClientToAgent, "session/load", fmt.Sprintf(`{"sessionId":"s1","cwd":%q,"mcpServers":[]}`, d.root))
	if !ok || d.x.loadingN.Load() != 1 {
		t.Fatalf("session/load forwarded %v, %d loads pending", ok, d.x.loadingN.Load())
	}
	d.open("s2") // forgets s1
	if n := d.x.loadingN.Load(); n != 0 {
		t.Errorf("%d loads pending after the loading session was forgotten, want 0", n)
	}
	if d.chunk("s1") {
		t.Error("the agent's replay in a forgotten session reached the IDE")
	}
	d.respond(req, `{}`)
	if d.x.opened.has("s1") || d.chunk("s1") {
		t.Error("the answer to the load opened the forgotten session again")
	}
	if !d.chunk("s2") {
		t.Error("a chunk in the open session was not forwarded")
	}
}
