package governance

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// fakeRecorder keeps events in memory.
type fakeRecorder struct {
	mu      sync.Mutex
	events  []recorded
	healthy error
}

type recorded struct {
	ev   audit.Event
	sync bool
}

func (r *fakeRecorder) Append(ev audit.Event) error { return r.add(ev, false) }

func (r *fakeRecorder) AppendSync(ev audit.Event) error {
	r.mu.Lock()
	err := r.healthy
	r.mu.Unlock()
	if err != nil {
		return err
	}
	return r.add(ev, true)
}

// AppendSyncSeq is AppendSync giving the event's index as its seq, as an
// audit log starting at seq 0 would.
func (r *fakeRecorder) AppendSyncSeq(ev audit.Event) (int64, error) {
	r.mu.Lock()
	seq := int64(len(r.events))
	r.mu.Unlock()
	return seq, r.AppendSync(ev)
}

func (r *fakeRecorder) add(ev audit.Event, sync bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, recorded{ev, sync})
	return nil
}

func (r *fakeRecorder) Healthy() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.healthy
}

// setHealthy makes the recorder report err from Healthy and AppendSync,
// as an audit log that cannot write does; nil makes it healthy again.
func (r *fakeRecorder) setHealthy(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.healthy = err
}

// find returns the recorded events with action whose decision is dec ("" any).
func (r *fakeRecorder) find(action, dec string) []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []recorded
	for _, e := range r.events {
		if e.ev.Action == action && (dec == "" || e.ev.Policy != nil && e.ev.Policy.Decision == dec) {
			out = append(out, e)
		}
	}
	return out
}

// harness is a bridge with Enforce between a test IDE and a test agent,
// over real pipes (acpwiretest).
type harness struct {
	*acpwiretest.Harness
	t    *testing.T
	root string
	rec  *fakeRecorder
	enf  *Enforcer
}

func newHarness(t *testing.T, opts EnforceOptions) *harness {
	t.Helper()
	return newHarnessWith(t, opts, true)
}

// sessionHarness builds a harness, as newHarness does, whose IDE has
// opened session s1 (see openSession).
func sessionHarness(t *testing.T, opts EnforceOptions) *harness {
	t.Helper()
	h := newHarness(t, opts)
	h.openSession()
	return h
}

// newHarnessWith builds a harness; without engine the middleware runs with
// no policy (audit only).
func newHarnessWith(t *testing.T, opts EnforceOptions, engine bool) *harness {
	t.Helper()
	return newHarnessWire(t, opts, engine, acpwire.Options{})
}

// newHarnessWire builds a harness whose bridge has wire options wo.
func newHarnessWire(t *testing.T, opts EnforceOptions, engine bool, wo acpwire.Options) *harness {
	t.Helper()
	e, root := testEngine(t)
	if opts.Engine == nil && engine {
		opts.Engine = e
	}
	h := &harness{t: t, root: root, rec: &fakeRecorder{}}
	if opts.Audit == nil {
		opts.Audit = h.rec
	}
	if wo.OnRefused == nil {
		// As cmd/acp-bridge wires it: the wire layer's refusals are audited.
		wo.OnRefused = func(r acpwire.Refusal) { h.enf.Refused(r) }
	}
	b := acpwire.New(wo)
	opts.Sender = b
	h.enf = NewEnforcer(opts)
	b.UseFailClosedNonRetaining(h.enf) // as the bridge command adds it
	h.Harness = acpwiretest.Start(t, b)
	return h
}

// send sends the line format makes as a peer, after checking it is JSON.
func (h *harness) send(peer func(string), format string, args ...any) {
	h.t.Helper()
	line := fmt.Sprintf(format, args...)
	if !json.Valid([]byte(line)) {
		h.t.Fatalf("test sends invalid JSON: %s", line)
	}
	peer(line)
}

func (h *harness) ide(format string, args ...any) {
	h.t.Helper()
	h.send(h.FromClient, format, args...)
}
func (h *harness) agent(format string, args ...any) {
	h.t.Helper()
	h.send(h.FromAgent, format, args...)
}

// decode returns line, which who received, decoded.
func (h *harness) decode(line, who string) map[string]any {
	h.t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		h.t.Fatalf("%s received invalid JSON %q", who, line)
	}
	return m
}

func (h *harness) nextAtIDE() map[string]any   { h.t.Helper(); return h.decode(h.ClientGets(), "IDE") }
func (h *harness) nextAtAgent() map[string]any { h.t.Helper(); return h.decode(h.AgentGets(), "agent") }

// get walks a decoded message (acpwiretest.At).
func get(m map[string]any, path ...string) any { return acpwiretest.At(m, path...) }

// openSession runs session/new with the workspace root as cwd.
func (h *harness) openSession() {
	h.t.Helper()
	h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, h.root)
	if m := h.nextAtAgent(); m["method"] != "session/new" {
		h.t.Fatalf("agent got %v, want session/new", m)
	}
	h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`)
	if m := h.nextAtIDE(); get(m, "result", "sessionId") != "s1" {
		h.t.Fatalf("IDE got %v, want the session/new result", m)
	}
}

// marker sends a harmless update and checks it is the next thing the IDE
// sees: proof that nothing else reached the IDE before it.
func (h *harness) marker() {
	h.t.Helper()
	h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"MARK"}}}}`)
	if m := h.nextAtIDE(); get(m, "params", "update", "content", "text") != "MARK" {
		h.t.Fatalf("IDE got %v before the marker", m)
	}
}

// rawAgent and rawIDE send a line as is, valid JSON or not.
func (h *harness) rawAgent(line string) { h.t.Helper(); h.FromAgent(line) }
func (h *harness) rawIDE(line string)   { h.t.Helper(); h.FromClient(line) }

// rooted is s with every %[1]s replaced by the workspace root.
func (h *harness) rooted(s string) string { return strings.ReplaceAll(s, "%[1]s", h.root) }
