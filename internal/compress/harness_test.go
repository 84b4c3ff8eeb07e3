package compress

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// harness runs a real acpwire.Bridge with the pipeline over OS pipes
// (acpwiretest); the test plays both the IDE and the agent.
type harness struct {
	*acpwiretest.Harness
	t   testing.TB
	p   *Pipeline
	log *strings.Builder
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	return newHarnessWith(t, &cfg)
}

// newHarnessWith runs the pipeline configured by cfg, or a bare bridge
// (the pass-through baseline) if cfg is nil.
func newHarnessWith(t testing.TB, cfg *Config) *harness {
	t.Helper()
	var log strings.Builder
	var p *Pipeline
	// As cmd/acp-bridge wires it: the pipeline hears the wire's refusals.
	b := acpwire.New(acpwire.Options{OnRefused: func(r acpwire.Refusal) {
		if p != nil {
			p.Refused(r)
		}
	}})
	if cfg != nil {
		if cfg.CacheDir == "" {
			cfg.CacheDir = filepath.Join(t.TempDir(), "cache")
		}
		if cfg.EventLog == nil {
			cfg.EventLog = &log
		}
		var err error
		if p, err = New(*cfg, b); err != nil {
			t.Fatal(err)
		}
		b.UseNonRetaining(p) // as the bridge command adds it
	}
	return &harness{Harness: acpwiretest.Start(t, b), t: t, p: p, log: &log}
}

func (h *harness) ide(line string)   { h.t.Helper(); h.mustJSON(line); h.FromClient(line) }
func (h *harness) agent(line string) { h.t.Helper(); h.mustJSON(line); h.FromAgent(line) }

func (h *harness) mustJSON(line string) {
	h.t.Helper()
	if !json.Valid([]byte(line)) {
		h.t.Fatalf("test wrote invalid JSON: %s", line)
	}
}

// readIDE returns the next message the IDE receives.
func (h *harness) readIDE() []byte { h.t.Helper(); return []byte(h.ClientGets()) }

// readAgent returns the next message the agent receives.
func (h *harness) readAgent() []byte { h.t.Helper(); return []byte(h.AgentGets()) }

// wantEvent fails the test if the pipeline logged no event of type ev.
func (h *harness) wantEvent(ev string) {
	h.t.Helper()
	if !strings.Contains(h.log.String(), `"event":"`+ev+`"`) {
		h.t.Errorf("no %s event logged:\n%s", ev, h.log)
	}
}

// untilIDE reads IDE messages until one satisfies pred, returning all read.
func (h *harness) untilIDE(pred func([]byte) bool) [][]byte {
	h.t.Helper()
	var seen [][]byte
	for {
		m := h.readIDE()
		seen = append(seen, m)
		if pred(m) {
			return seen
		}
	}
}

func isResponse(id string) func([]byte) bool {
	return func(m []byte) bool {
		v, ok := rawjson.Get(m, "id")
		_, hasMethod := rawjson.Get(m, "method")
		return ok && string(v) == id && !hasMethod
	}
}

func str(m []byte, path ...string) string {
	s, _ := rawjson.GetString(m, path...)
	return s
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// sessionHarness builds a harness, as newHarness does, whose IDE has
// opened session s1 in /repo (see newSession).
func sessionHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	h := newHarness(t, cfg)
	h.newSession(1, "/repo", "s1")
	return h
}

// newSession runs session/new through the bridge: the agent answers with
// id, and the IDE receives the response and the bridge's command list.
func (h *harness) newSession(reqID int, cwd, id string) {
	h.t.Helper()
	h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": reqID, "method": "session/new", "params": map[string]any{"cwd": cwd, "mcpServers": []any{map[string]any{"name": "fs", "command": "/bin/mcp-fs", "args": []string{}, "env": []any{}}}}}))
	req := h.readAgent()
	if str(req, "method") != "session/new" {
		h.t.Fatalf("agent got %s", req)
	}
	h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": reqID, "result": map[string]any{"sessionId": id}}))
	resp := h.readIDE()
	if str(resp, "result", "sessionId") != id {
		h.t.Fatalf("IDE got %s", resp)
	}
	cmds := h.readIDE()
	if str(cmds, "params", "update", "sessionUpdate") != "available_commands_update" {
		h.t.Fatalf("IDE got %s, want the bridge's available_commands_update", cmds)
	}
}

// prompt sends the IDE's session/prompt id, of one text block, and checks
// the agent receives a session/prompt.
func (h *harness) prompt(id int, session, text string) {
	h.t.Helper()
	h.ide(promptMsg(id, session, textBlock(text)))
	if req := h.readAgent(); str(req, "method") != "session/prompt" {
		h.t.Fatalf("agent got %s, want the session/prompt", req)
	}
}

func promptMsg(id int, session string, blocks ...any) string {
	return mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": "session/prompt", "params": map[string]any{"sessionId": session, "prompt": blocks}})
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func update(session string, u map[string]any) string {
	return mustJSON(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": session, "update": u}})
}

func agentSays(session, text string) string {
	return update(session, map[string]any{"sessionUpdate": "agent_message_chunk", "content": textBlock(text)})
}

func endTurn(id int) string {
	return mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"stopReason": "end_turn"}})
}

// setSpoolSegment makes spools start a new segment every n bytes until t
// ends, so that a test rotates segments without writing SpoolSegmentBytes.
func setSpoolSegment(t testing.TB, n int64) {
	old := spoolSegment
	spoolSegment = n
	t.Cleanup(func() { spoolSegment = old })
}

// spoolingRecorder sets the spool's segment size to segment for t and
// returns a new directory, a store in it and a recorder of session "s"
// spooling into the store.
func spoolingRecorder(t *testing.T, segment int64) (string, *Store, *Recorder) {
	t.Helper()
	setSpoolSegment(t, segment)
	dir := t.TempDir()
	st := NewStore(dir, nil)
	r := NewRecorder("s", "/r")
	r.SpoolTo(st.spoolBase("s"))
	return dir, st, r
}
