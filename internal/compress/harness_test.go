package compress

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// harness runs a real acpwire.Bridge with the pipeline over io.Pipes; the
// test plays both the IDE and the agent.
type harness struct {
	t        testing.TB
	p        *Pipeline
	ideOut   io.WriteCloser // IDE -> bridge
	agentOut io.WriteCloser // agent -> bridge
	toIDE    chan []byte    // bridge -> IDE
	toAgent  chan []byte    // bridge -> agent
	log      *strings.Builder
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
	b := acpwire.New(acpwire.Options{})
	var p *Pipeline
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
		b.Use(p)
	}
	cr, cw := io.Pipe() // IDE writes cw, bridge reads cr
	ir, iw := io.Pipe() // bridge writes iw, IDE reads ir
	ar, aw := io.Pipe() // agent writes aw, bridge reads ar
	gr, gw := io.Pipe() // bridge writes gw, agent reads gr
	ctx, cancel := context.WithCancel(context.Background())
	sess, err := b.Start(ctx, acpwire.Endpoint{In: cr, Out: iw}, acpwire.Endpoint{In: ar, Out: gw})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, p: p, ideOut: cw, agentOut: aw, toIDE: pump(ir), toAgent: pump(gr), log: &log}
	t.Cleanup(func() {
		// Cancelling first releases a handler still waiting in Call.
		cancel()
		cw.Close()
		aw.Close()
		<-sess.Done(acpwire.ClientToAgent)
		<-sess.Done(acpwire.AgentToClient)
		sess.Close()
		iw.Close()
		gw.Close()
	})
	return h
}

func pump(r io.Reader) chan []byte {
	ch := make(chan []byte, 1024)
	go func() {
		defer close(ch)
		br := bufio.NewReaderSize(r, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				ch <- []byte(strings.TrimRight(string(line), "\n"))
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

func (h *harness) ide(line string)   { h.t.Helper(); h.write(h.ideOut, line) }
func (h *harness) agent(line string) { h.t.Helper(); h.write(h.agentOut, line) }

func (h *harness) write(w io.Writer, line string) {
	h.t.Helper()
	if !json.Valid([]byte(line)) {
		h.t.Fatalf("test wrote invalid JSON: %s", line)
	}
	if _, err := io.WriteString(w, line+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) next(ch chan []byte, side string) []byte {
	h.t.Helper()
	select {
	case m, ok := <-ch:
		if !ok {
			h.t.Fatalf("%s stream closed", side)
		}
		return m
	case <-time.After(10 * time.Second):
		h.t.Fatalf("timed out waiting for a message to the %s", side)
	}
	return nil
}

// readIDE returns the next message the IDE receives.
func (h *harness) readIDE() []byte { h.t.Helper(); return h.next(h.toIDE, "IDE") }

// readAgent returns the next message the agent receives.
func (h *harness) readAgent() []byte { h.t.Helper(); return h.next(h.toAgent, "agent") }

// noMore fails if side receives anything within a short grace period.
func (h *harness) noMore(ch chan []byte, side string) {
	h.t.Helper()
	select {
	case m := <-ch:
		h.t.Fatalf("unexpected message to the %s: %s", side, m)
	case <-time.After(50 * time.Millisecond):
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
