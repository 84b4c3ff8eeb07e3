package manifest

import (
	"strings"
	"testing"

	acpbridge "github.com/acp-bridge/acp-bridge"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// wire runs a real acpwire.Bridge with Mask over OS pipes (acpwiretest);
// the test plays the IDE and the agent.
type wire struct {
	*acpwiretest.Harness
	t *testing.T
}

func newWire(t *testing.T, m *Manifest) *wire {
	t.Helper()
	b := acpwire.New(acpwire.Options{InitializeTimeout: -1})
	// As cmd/acp-bridge adds it: read blocks are reused, and poisoned
	// when they come back, so bytes kept past handling would show.
	t.Setenv(acpwire.PoisonBlocksEnv, "1")
	b.UseNonRetaining(Mask(m, b, MaskOptions{Version: "v0.0.0-test"}))
	return &wire{Harness: acpwiretest.Start(t, b), t: t}
}

// step is one line of a wire conversation: ide and agent lines are written
// by that peer; toIDE and toAgent lines are what that peer must receive
// next, byte for byte.
type step struct{ ide, agent, toIDE, toAgent string }

func (w *wire) run(steps []step) {
	w.t.Helper()
	for i, s := range steps {
		switch {
		case s.ide != "":
			w.FromClient(s.ide)
		case s.agent != "":
			w.FromAgent(s.agent)
		case s.toIDE != "":
			if got := w.ClientGets(); got != s.toIDE {
				w.t.Fatalf("step %d: IDE received\n  %s\nwant\n  %s", i, got, s.toIDE)
			}
		case s.toAgent != "":
			if got := w.AgentGets(); got != s.toAgent {
				w.t.Fatalf("step %d: agent received\n  %s\nwant\n  %s", i, got, s.toAgent)
			}
		}
	}
}

func mustParse(t *testing.T, aip44 string) *Manifest {
	t.Helper()
	src := "---\nname: test\nid: test-manifest\ndescription: d\nversion: 1.0.0\nkind: bridge\ntransport: stdio\nmetadata:\n  aip44:\n    acp_rev: abc1234\n" + aip44 + "---\n"
	m, err := Parse("ACP.md", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return m
}

const (
	basic          = "    tier: basic\n"
	readOnlyClient = "    tier: governance-aware\n    capabilities:\n      client:\n        fs: {readTextFile: true}\n"
)

// An IDE that offers everything, and an agent that offers everything.
const (
	initReq  = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"_meta":{"terminal_output":true}},"clientInfo":{"name":"zed","version":"1"}}}`
	initResp = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":true,"audio":true,"embeddedContext":true},"mcpCapabilities":{"http":true,"sse":true},"sessionCapabilities":{"list":{}}},"authMethods":[],"agentInfo":{"name":"claude-agent-acp","version":"0.23.0"},"_meta":{"claudeCode":{"x":1}}}}`
)

// initializeSteps is the initialize exchange of the IDE and agent that
// offer everything (initReq, initResp), the agent receiving toAgent and
// the IDE toIDE.
func initializeSteps(toAgent, toIDE string) []step {
	return []step{{ide: initReq}, {toAgent: toAgent}, {agent: initResp}, {toIDE: toIDE}}
}

func TestMaskInitialize(t *testing.T) {
	tests := []struct {
		name  string
		aip44 string
		steps []step
	}{
		{
			name:  "basic tier masks every optional capability both ways",
			aip44: basic,
			steps: initializeSteps(
				`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false,"_meta":{"terminal_output":true}},"clientInfo":{"name":"zed","version":"1"}}}`,
				`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":false,"promptCapabilities":{"image":false,"audio":false,"embeddedContext":false},"mcpCapabilities":{"http":false,"sse":false},"sessionCapabilities":{"list":{}}},"authMethods":[],"agentInfo":{"name":"claude-agent-acp","version":"0.23.0"},"_meta":{"claudeCode":{"x":1},"acp-bridge":{"name":"acp-bridge","version":"v0.0.0-test","manifest":"test-manifest","tier":"basic"}}}}`),
		},
		{
			name:  "a declared client side grants what it lists and the tier grants loadSession",
			aip44: readOnlyClient,
			steps: initializeSteps(
				`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":false},"terminal":false,"_meta":{"terminal_output":true}},"clientInfo":{"name":"zed","version":"1"}}}`,
				`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":false,"audio":false,"embeddedContext":false},"mcpCapabilities":{"http":false,"sse":false},"sessionCapabilities":{"list":{}}},"authMethods":[],"agentInfo":{"name":"claude-agent-acp","version":"0.23.0"},"_meta":{"claudeCode":{"x":1},"acp-bridge":{"name":"acp-bridge","version":"v0.0.0-test","manifest":"test-manifest","tier":"governance-aware"}}}}`),
		},
		{
			name:  "capabilities a peer does not advertise are left out, not added",
			aip44: basic,
			steps: []step{
				{ide: `{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":1}}`},
				{toAgent: `{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":1}}`},
				{agent: `{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":1,"agentCapabilities":{"loadSession":false}}}`},
				{toIDE: `{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":1,"agentCapabilities":{"loadSession":false},"_meta":{"acp-bridge":{"name":"acp-bridge","version":"v0.0.0-test","manifest":"test-manifest","tier":"basic"}}}}`},
			},
		},
		{
			name:  "a null _meta is replaced",
			aip44: basic,
			steps: []step{
				{ide: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`},
				{toAgent: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`},
				{agent: `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"_meta":null}}`},
				{toIDE: `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"_meta":{"acp-bridge":{"name":"acp-bridge","version":"v0.0.0-test","manifest":"test-manifest","tier":"basic"}}}}`},
			},
		},
		{
			name:  "an initialize error passes untouched",
			aip44: basic,
			steps: []step{
				{ide: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`},
				{toAgent: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`},
				{agent: `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`},
				{toIDE: `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newWire(t, mustParse(t, tt.aip44)).run(tt.steps)
		})
	}
}

func TestMaskRefusesWithheldCalls(t *testing.T) {
	// After each refused call, a harmless message goes the same way; it
	// must be the next thing the other peer receives, which proves the
	// refused call never reached it.
	const (
		agentNote = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
		ideNote   = `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`
	)
	tests := []struct {
		name  string
		aip44 string
		steps []step
	}{
		{
			name:  "agent writes a file without fs.writeTextFile",
			aip44: readOnlyClient,
			steps: []step{
				{agent: `{"jsonrpc":"2.0","id":7,"method":"fs/write_text_file","params":{"sessionId":"s","path":"/w/a.go","content":"x"}}`},
				{toAgent: `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"method fs/write_text_file is not available: the bridge's manifest (test-manifest) does not grant clientCapabilities.fs.writeTextFile","data":{"capability":"clientCapabilities.fs.writeTextFile","manifest":"test-manifest"}}}`},
				{agent: agentNote},
				{toIDE: agentNote},
			},
		},
		{
			name:  "agent reads a file with fs.readTextFile granted",
			aip44: readOnlyClient,
			steps: []step{
				{agent: `{"jsonrpc":"2.0","id":8,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/w/a.go"}}`},
				{toIDE: `{"jsonrpc":"2.0","id":8,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/w/a.go"}}`},
				{ide: `{"jsonrpc":"2.0","id":8,"result":{"content":"package a"}}`},
				{toAgent: `{"jsonrpc":"2.0","id":8,"result":{"content":"package a"}}`},
			},
		},
		{
			name:  "agent starts a terminal without terminal",
			aip44: readOnlyClient,
			steps: []step{
				{agent: `{"jsonrpc":"2.0","id":"t1","method":"terminal/create","params":{"sessionId":"s","command":"rm","args":["-rf","/"]}}`},
				{toAgent: `{"jsonrpc":"2.0","id":"t1","error":{"code":-32601,"message":"method terminal/create is not available: the bridge's manifest (test-manifest) does not grant clientCapabilities.terminal","data":{"capability":"clientCapabilities.terminal","manifest":"test-manifest"}}}`},
				{agent: `{"jsonrpc":"2.0","method":"terminal/kill","params":{"sessionId":"s","terminalId":"x"}}`},
				{agent: agentNote},
				{toIDE: agentNote},
			},
		},
		{
			name:  "IDE loads a session without loadSession",
			aip44: basic,
			steps: []step{
				{ide: `{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"old","cwd":"/w","mcpServers":[]}}`},
				{toIDE: `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"method session/load is not available: the bridge's manifest (test-manifest) does not grant agentCapabilities.loadSession","data":{"capability":"agentCapabilities.loadSession","manifest":"test-manifest"}}}`},
				{ide: ideNote},
				{toAgent: ideNote},
			},
		},
		{
			name:  "IDE loads a session with loadSession granted",
			aip44: readOnlyClient,
			steps: []step{
				{ide: `{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"old","cwd":"/w","mcpServers":[]}}`},
				{toAgent: `{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"old","cwd":"/w","mcpServers":[]}}`},
			},
		},
		{
			name:  "IDE sends an image the manifest does not grant",
			aip44: basic,
			steps: []step{
				{ide: `{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"look"},{"type":"image","mimeType":"image/png","data":"AA=="}]}}`},
				{toIDE: `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"session/prompt: prompt[1] is image content, but the bridge's manifest (test-manifest) does not grant agentCapabilities.promptCapabilities.image","data":{"capability":"agentCapabilities.promptCapabilities.image","manifest":"test-manifest"}}}`},
				{ide: `{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"look"},{"type":"resource_link","uri":"file:///w/a.go","name":"a.go"}]}}`},
				{toAgent: `{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"look"},{"type":"resource_link","uri":"file:///w/a.go","name":"a.go"}]}}`},
			},
		},
		{
			name:  "IDE names an HTTP MCP server the manifest does not grant",
			aip44: basic,
			steps: []step{
				{ide: `{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":"/w","mcpServers":[{"name":"fs","command":"mcp-fs","args":[],"env":[]},{"type":"http","name":"web","url":"https://x","headers":[]}]}}`},
				{toIDE: `{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"session/new: mcpServers[1] is an HTTP MCP server, but the bridge's manifest (test-manifest) does not grant agentCapabilities.mcpCapabilities.http","data":{"capability":"agentCapabilities.mcpCapabilities.http","manifest":"test-manifest"}}}`},
				{ide: `{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"/w","mcpServers":[{"name":"fs","command":"mcp-fs","args":[],"env":[]}]}}`},
				{toAgent: `{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"/w","mcpServers":[{"name":"fs","command":"mcp-fs","args":[],"env":[]}]}}`},
			},
		},
		{
			name:  "basic tier drops tool-call updates and keeps the rest",
			aip44: basic,
			steps: []step{
				{agent: `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read a.go"}}}`},
				{agent: `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}}}`},
				{agent: agentNote},
				{toIDE: agentNote},
			},
		},
		{
			name:  "governance-aware tier streams tool calls",
			aip44: readOnlyClient,
			steps: []step{
				{agent: `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read a.go"}}}`},
				{toIDE: `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read a.go"}}}`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newWire(t, mustParse(t, tt.aip44)).run(tt.steps)
		})
	}
}

// TestDefaultManifestMasksNothing runs the bridge's own embedded ACP.md:
// everything either peer offers passes, and only the identity is added.
func TestDefaultManifestMasksNothing(t *testing.T) {
	m, err := Parse("ACP.md", acpbridge.ACPManifest)
	if err != nil {
		t.Fatalf("parsing the embedded ACP.md: %v", err)
	}
	w := newWire(t, m)
	calls := []string{
		`{"jsonrpc":"2.0","id":1,"method":"fs/write_text_file","params":{"sessionId":"s","path":"/w/a","content":"x"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"terminal/create","params":{"sessionId":"s","command":"ls"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"t"}}}`,
	}
	withIdentity := strings.TrimSuffix(initResp, `}}}`) + `,"acp-bridge":{"name":"acp-bridge","version":"v0.0.0-test","manifest":"acp-bridge","tier":"governance-aware"}}}}`
	w.run(append(initializeSteps(initReq, withIdentity), []step{
		{ide: `{"jsonrpc":"2.0","id":9,"method":"session/load","params":{"sessionId":"old","cwd":"/w","mcpServers":[{"type":"sse","name":"x","url":"u","headers":[]}]}}`},
		{toAgent: `{"jsonrpc":"2.0","id":9,"method":"session/load","params":{"sessionId":"old","cwd":"/w","mcpServers":[{"type":"sse","name":"x","url":"u","headers":[]}]}}`},
		{agent: calls[0]}, {toIDE: calls[0]},
		{agent: calls[1]}, {toIDE: calls[1]},
		{agent: calls[2]}, {toIDE: calls[2]},
	}...))
}
