package adapter

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// wire runs a real bridge with the adapter middleware between pipes and
// returns writers for the client and agent sides and readers for what comes
// out on each.
type wire struct {
	toBridgeFromClient, toBridgeFromAgent *io.PipeWriter
	atAgent, atClient                     *bufio.Reader
}

func startWire(t *testing.T, sel *Selector) *wire {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b := acpwire.New(acpwire.Options{})
	// As cmd/acp-bridge adds it: read blocks are reused, and poisoned
	// when they come back, so bytes kept past handling would show.
	t.Setenv(acpwire.PoisonBlocksEnv, "1")
	b.UseNonRetaining(Middleware(sel, b))
	cr, cw := io.Pipe()
	ar, aw := io.Pipe()
	outAgentR, outAgentW := io.Pipe()
	outClientR, outClientW := io.Pipe()
	s, err := b.Start(ctx, acpwire.Endpoint{In: cr, Out: outClientW}, acpwire.Endpoint{In: ar, Out: outAgentW})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cw.Close()
		aw.Close()
		outAgentR.Close()
		outClientR.Close()
		cancel()
		<-s.Done(acpwire.ClientToAgent)
		<-s.Done(acpwire.AgentToClient)
	})
	return &wire{toBridgeFromClient: cw, toBridgeFromAgent: aw, atAgent: bufio.NewReader(outAgentR), atClient: bufio.NewReader(outClientR)}
}

func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		l, _ := r.ReadString('\n')
		done <- strings.TrimSuffix(l, "\n")
	}()
	select {
	case l := <-done:
		return l
	case <-time.After(5 * time.Second):
		t.Fatal("timed out reading from the bridge")
		return ""
	}
}

func send(t *testing.T, w io.Writer, line string) {
	t.Helper()
	if _, err := io.WriteString(w, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func TestMiddlewareDetectsFromAgentInfo(t *testing.T) {
	sel := NewSelector(nil, true, Config{Rules: Rules{Deny: []string{"Read(**/.env)"}}})
	defer sel.Close()
	w := startWire(t, sel)

	send(t, w.toBridgeFromClient, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	readLine(t, w.atAgent)
	send(t, w.toBridgeFromAgent, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"@agentclientprotocol/claude-agent-acp","version":"0.49.0"}}}`)
	readLine(t, w.atClient)
	if a := sel.Active(); a == nil || a.Name() != Claude {
		t.Fatalf("active adapter after initialize = %v, want claude", a)
	}
	if sel.PreToolHook() {
		t.Errorf("PreToolHook is true for a Claude adapter without a decider")
	}
	newSession := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","mcpServers":[],"_meta":{"zed":{"x":1}}}}`
	send(t, w.toBridgeFromClient, newSession)
	got := readLine(t, w.atAgent)
	want := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","mcpServers":[],"_meta":{"zed":{"x":1},"claudeCode":{"options":{"extraArgs":{"settings":"{\"permissions\":{\"deny\":[\"Read(**/.env)\"]}}"}}}}}}`
	if got != want {
		t.Errorf("session/new at the agent:\n got %s\nwant %s", got, want)
	}
	// Other messages pass untouched.
	prompt := `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`
	send(t, w.toBridgeFromClient, prompt)
	if got := readLine(t, w.atAgent); got != prompt {
		t.Errorf("prompt changed: %s", got)
	}
}

func TestMiddlewareUnknownAgentPassesThrough(t *testing.T) {
	sel := NewSelector(nil, true, Config{Rules: Rules{Deny: []string{"Read(**/.env)"}}})
	w := startWire(t, sel)
	send(t, w.toBridgeFromClient, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	readLine(t, w.atAgent)
	send(t, w.toBridgeFromAgent, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"codex-acp"}}}`)
	readLine(t, w.atClient)
	newSession := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","mcpServers":[]}}`
	send(t, w.toBridgeFromClient, newSession)
	if got := readLine(t, w.atAgent); got != newSession {
		t.Errorf("session/new for an unknown agent changed: %s", got)
	}
}

func TestMiddlewareFailedPatchAnswersError(t *testing.T) {
	c := newTestClaude(t, Rules{Deny: []string{"Read(**/.env)"}})
	w := startWire(t, NewSelector(c, false, Config{}))
	send(t, w.toBridgeFromClient, `{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"/ws","_meta":{"claudeCode":{"options":{"settings":"/nonexistent.json"}}}}}`)
	got := readLine(t, w.atClient)
	if !strings.Contains(got, `"id":7`) || !strings.Contains(got, `"error"`) || !strings.Contains(got, "cannot apply the policy") {
		t.Errorf("IDE got %s, want an error response", got)
	}
}

func TestGeminiRefusalsAudited(t *testing.T) {
	rec := &memRecorder{}
	a, err := New(Gemini, Config{Rules: Rules{Deny: []string{"Bash(rm:*)"}}, Audit: rec, Operator: "agent:gemini"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Spawn(&acpwire.AgentCommand{Path: "gemini", Args: []string{"--acp"}}); err != nil {
		t.Fatal(err)
	}
	w := startWire(t, NewSelector(a, false, Config{}))
	// As Gemini CLI 0.61 reports a call its policy engine refused.
	refused := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"run_shell_command__run_shell_command_1795292928861_0","status":"failed","content":[{"type":"content","content":{"type":"text","text":"Tool execution for \"Shell\" denied by policy."}}],"kind":"execute"}}}`
	failed := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"read_file__1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"ENOENT"}}]}}}`
	for _, line := range []string{refused, failed} {
		send(t, w.toBridgeFromAgent, line)
		if got := readLine(t, w.atClient); got != line {
			t.Errorf("the update changed on its way to the IDE: %s", got)
		}
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.events) != 1 {
		t.Fatalf("%d audit records, want 1 (the refused call only)", len(rec.events))
	}
	ev := rec.events[0]
	tc := ev.Metadata["toolCall"].(audit.ToolCall)
	if ev.Policy == nil || ev.Policy.Decision != "deny" || ev.Subject.Ref != "run_shell_command__run_shell_command_1795292928861_0" ||
		tc.Tool != "run_shell_command" || tc.Operator != "agent:gemini" || ev.Metadata["session"] != "s1" {
		t.Errorf("audit record = %+v", ev)
	}
}
