package adapter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/compress"
	"github.com/acp-bridge/acp-bridge/internal/governance"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// TestOptionsFromSessionsAfterRollover: once compression rolls session A
// over to a fresh agent session D the bridge opened itself, Claude's hook
// names D. The hook's decisions must take A's workspace roots and mode, as
// the wire-level enforcement knows them: the enforcer does not know D, and
// with A and B open a session it does not know is inside no workspace, so
// the hook must not judge A's continuation with B's workspace as its own
// (a write into B's workspace is outside the roots).
func TestOptionsFromSessionsAfterRollover(t *testing.T) {
	e, enf, p, wsA, wsB := rolledOver(t)
	g := &governance.Setup{Policy: e.Policy(), Engine: e, Enforcer: enf}
	o := OptionsFrom(&acpwire.AgentCommand{Path: "claude-agent-acp"}, g, p, nil)
	wantRoots := enf.Roots("A")
	if len(wantRoots) == 0 || slices.Contains(wantRoots, wsB) {
		t.Fatalf("A's roots %v", wantRoots)
	}
	if got := o.Sessions.Roots("D"); !slices.Equal(got, wantRoots) {
		t.Errorf("roots of the rolled-over session D = %v, want A's %v", got, wantRoots)
	}
	if got := o.Sessions.Roots("B"); !slices.Equal(got, enf.Roots("B")) {
		t.Errorf("roots of B = %v, want %v", got, enf.Roots("B"))
	}
	if got, want := o.Sessions.Mode("D"), enf.Mode("A"); got != want || want == "" {
		t.Errorf("mode of D = %q, want A's %q", got, want)
	}
	// Claude's Write into B's workspace from A's continuation is outside
	// the session's workspace, as it is from A itself; so it is from a
	// session Z the bridge knows nothing of (a rollover it did not see),
	// which with A and B open takes neither workspace, not both.
	write := ToolCall{Agent: Claude, Tool: "Write", SessionID: "D", Cwd: wsA,
		Input: []byte(fmt.Sprintf(`{"file_path":%q,"content":"x"}`, filepath.Join(wsB, "notes.txt")))}
	for _, sid := range []string{"A", "D", "Z"} {
		write.SessionID = sid
		d, err := PolicyDeciderIn(e, o.Sessions).DecideTool(t.Context(), write)
		if err != nil || d.Verdict != Deny {
			t.Errorf("Claude's Write into B's workspace in session %s: %+v, %v; want it denied", sid, d, err)
		}
	}
}

// rolledOver opens sessions A (in wsA) and B (in wsB) through a bridge
// with the enforcer and the compression pipeline, then fills A's context
// to CRITICAL and rolls it over with its next prompt to a fresh agent
// session D, which the agent answers the bridge's session/new with.
func rolledOver(t *testing.T) (e *governance.Engine, enf *governance.Enforcer, p *compress.Pipeline, wsA, wsB string) {
	t.Helper()
	e, _ = loadTestEngine(t)
	wsA, wsB = filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	b := acpwire.New(acpwire.Options{})
	enf = governance.NewEnforcer(governance.EnforceOptions{Engine: e, Sender: b})
	p, err := compress.New(compress.Config{CacheDir: filepath.Join(t.TempDir(), "cache"), EventLog: &strings.Builder{}}, b)
	if err != nil {
		t.Fatal(err)
	}
	b.Use(enf.Middleware())
	b.UseNonRetaining(p)
	h := acpwiretest.Start(t, b)
	agentGets := func(method string) []byte {
		t.Helper()
		m := []byte(h.AgentGets())
		if got, _ := rawjson.GetString(m, "method"); got != method {
			t.Fatalf("agent got %s, want %s", m, method)
		}
		return m
	}
	untilIDE := func(id string) {
		t.Helper()
		for {
			m := []byte(h.ClientGets())
			if v, ok := rawjson.Get(m, "id"); ok && string(v) == id {
				return
			}
		}
	}
	for i, ws := range []string{wsA, wsB} {
		id := i + 1
		h.FromClient(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, id, ws))
		agentGets("session/new")
		h.FromAgent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"sessionId":%q,"modes":{"currentModeId":"default","availableModes":[]}}}`, id, string(rune('A'+i))))
		untilIDE(fmt.Sprint(id))
	}
	// A turn in A fills its context to CRITICAL; the next prompt rolls it
	// over to D.
	h.FromClient(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"A","prompt":[{"type":"text","text":"Port the build to Bazel"}]}}`)
	agentGets("session/prompt")
	h.FromAgent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"A","update":{"sessionUpdate":"usage_update","used":180000,"size":200000}}}`)
	h.FromAgent(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`)
	untilIDE("3")
	h.FromClient(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"A","prompt":[{"type":"text","text":"go on"}]}}`)
	req := agentGets("session/new")
	id, _ := rawjson.Get(req, "id")
	h.FromAgent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"D"}}`, id))
	if m := agentGets("session/prompt"); !strings.Contains(string(m), `"sessionId":"D"`) {
		t.Fatalf("agent got %s, want the prompt in D", m)
	}

	return e, enf, p, wsA, wsB
}
