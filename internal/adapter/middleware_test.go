package adapter

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// startWire runs a real bridge with the adapter middleware over OS pipes
// (acpwiretest); the test plays the IDE and the agent.
func startWire(t *testing.T, sel *Selector) *acpwiretest.Harness {
	t.Helper()
	b := acpwire.New(acpwire.Options{})
	// As cmd/acp-bridge adds it: read blocks are reused, and poisoned
	// when they come back, so bytes kept past handling would show.
	t.Setenv(acpwire.PoisonBlocksEnv, "1")
	b.UseNonRetaining(Middleware(sel, b))
	return acpwiretest.Start(t, b)
}

// initialize plays the initialize handshake on w, the agent naming itself
// with agentInfo (a JSON object).
func initialize(w *acpwiretest.Harness, agentInfo string) {
	w.FromClient(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	w.AgentGets()
	w.FromAgent(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":` + agentInfo + `}}`)
	w.ClientGets()
}

// spawn makes the adapter name with cfg and has it prepare cmd, failing t
// on either error; the adapter is closed when t ends.
func spawn(t *testing.T, name string, cfg Config, cmd *acpwire.AgentCommand) Adapter {
	t.Helper()
	a, err := New(name, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if err := a.Spawn(cmd); err != nil {
		t.Fatal(err)
	}
	return a
}

// detectClaude runs a wire whose selector detects the agent from what it
// says it is, plays the initialize handshake with an agent naming itself
// agentInfo (a JSON object), and checks that Claude's adapter was chosen
// without a pre-tool hook: only an adapter the bridge chose itself can say
// a hook of the bridge's stands in front of the tool calls.
func detectClaude(t *testing.T, cfg Config, agentInfo string) *acpwiretest.Harness {
	t.Helper()
	sel := NewSelector(nil, true, cfg)
	w := startWire(t, sel)
	// Closed before the wire's leak check, which runs at its cleanup.
	t.Cleanup(func() { sel.Close() })
	initialize(w, agentInfo)
	if a := sel.Active(); a == nil || a.Name() != Claude {
		t.Fatalf("active adapter after initialize = %v, want claude", a)
	}
	if sel.PreToolHook() {
		t.Fatal("PreToolHook is true for an adapter chosen from what the agent says it is")
	}
	return w
}

func TestMiddlewareDetectsFromAgentInfo(t *testing.T) {
	w := detectClaude(t, Config{Rules: Rules{Deny: []string{"Read(**/.env)"}}}, `{"name":"@agentclientprotocol/claude-agent-acp","version":"0.49.0"}`)
	newSession := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","mcpServers":[],"_meta":{"zed":{"x":1}}}}`
	w.FromClient(newSession)
	got := w.AgentGets()
	want := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","mcpServers":[],"_meta":{"zed":{"x":1},"claudeCode":{"options":{"extraArgs":{"settings":"{\"permissions\":{\"deny\":[\"Read(**/.env)\"]}}"}}}}}}`
	if got != want {
		t.Errorf("session/new at the agent:\n got %s\nwant %s", got, want)
	}
	// Other messages pass untouched.
	prompt := `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`
	w.FromClient(prompt)
	if got := w.AgentGets(); got != prompt {
		t.Errorf("prompt changed: %s", got)
	}
}

func TestMiddlewareUnknownAgentPassesThrough(t *testing.T) {
	sel := NewSelector(nil, true, Config{Rules: Rules{Deny: []string{"Read(**/.env)"}}})
	w := startWire(t, sel)
	initialize(w, `{"name":"codex-acp"}`)
	newSession := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/ws","mcpServers":[]}}`
	w.FromClient(newSession)
	if got := w.AgentGets(); got != newSession {
		t.Errorf("session/new for an unknown agent changed: %s", got)
	}
}

func TestMiddlewareFailedPatchAnswersError(t *testing.T) {
	c := newTestClaude(t, Rules{Deny: []string{"Read(**/.env)"}})
	w := startWire(t, NewSelector(c, false, Config{}))
	w.FromClient(`{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"/ws","_meta":{"claudeCode":{"options":{"settings":"/nonexistent.json"}}}}}`)
	got := w.ClientGets()
	if !strings.Contains(got, `"id":7`) || !strings.Contains(got, `"error"`) || !strings.Contains(got, "cannot apply the policy") {
		t.Errorf("IDE got %s, want an error response", got)
	}
}

func TestGeminiRefusalsAudited(t *testing.T) {
	rec := &memRecorder{}
	a := spawn(t, Gemini, Config{Rules: Rules{Deny: []string{"Bash(rm:*)"}}, Audit: rec, Operator: "agent:gemini"},
		&acpwire.AgentCommand{Path: "gemini", Args: []string{"--acp"}})
	w := startWire(t, NewSelector(a, false, Config{}))
	// As Gemini CLI 0.61 reports a call its policy engine refused.
	refused := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"run_shell_command__run_shell_command_1795292928861_0","status":"failed","content":[{"type":"content","content":{"type":"text","text":"Tool execution for \"Shell\" denied by policy."}}],"kind":"execute"}}}`
	failed := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"read_file__1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"ENOENT"}}]}}}`
	for _, line := range []string{refused, failed} {
		w.FromAgent(line)
		if got := w.ClientGets(); got != line {
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
