package governance

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
)

// geminiMCPUpdate is a tool_call as Gemini CLI reports a call to a tool of
// an MCP server of its own: the display name as the title, kind other, the
// arguments as the text of its content, no rawInput or name.
func geminiMCPUpdate(status, title, text string) string {
	content, _ := json.Marshal([]any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": text}}})
	return `{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","status":"` + status + `","title":` +
		string(must(json.Marshal(title))) + `,"kind":"other","content":` + string(content) + `,"locations":[]}}`
}

// mergedCall returns the call the session/update line reports, as the call
// state of c1 in s1 holds it after merging the line.
func mergedCall(t *testing.T, line string) ToolCall {
	t.Helper()
	p, err := acpparams.ReadUpdate([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	c := &callState{session: "s1", id: "c1"}
	full, _, _ := c.merge(&p.ToolCall)
	return full
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestGeminiMCPCallJudged: a call Gemini CLI makes to a tool of its own MCP
// server is judged under the tool named in its title and on the arguments
// its content shows; one whose arguments Gemini left out needs approval;
// the text of a call already ended (its result) is no input.
func TestGeminiMCPCallJudged(t *testing.T) {
	x, ws := namesEnforcer(t)
	notes, plan := filepath.Join(ws, "notes.md"), filepath.Join(ws, "drafts", "plan.md")
	for _, tt := range []struct {
		name, status, title, text string
		want                      Value
		why                       string
	}{
		{"a denied server's tool", "pending", "wipe (evil MCP Server)", `{"path":"` + notes + `"}`, Deny, "mcp__evil__*"},
		{"an allowed server's tool on a file asked about", "pending", "tidy (good MCP Server)", `{"path":"` + plan + `"}`, RequireApproval, "drafts"},
		{"arguments left out", "in_progress", "tidy (good MCP Server)", "[Payload omitted due to length with parameters: path, text]", RequireApproval, "not all of them"},
		{"an allowed server's tool", "pending", "tidy (good MCP Server)", `{"query":"notes"}`, Allow, ""},
		{"arguments with a lone surrogate", "pending", "tidy (good MCP Server)", `{"path":"` + plan + `","q":"\ud800"}`, RequireApproval, "not all of them"},
		{"a member named twice", "pending", "tidy (good MCP Server)", `{"query":"notes","query":"` + plan + `"}`, RequireApproval, "not all of them"},
		{"a command argument as the title", "pending", "rm -rf x", `{"command":"rm -rf x","target":"` + plan + `"}`, RequireApproval, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			full := mergedCall(t, geminiMCPUpdate(tt.status, tt.title, tt.text))
			d, _, _ := x.judgeCall("s1", full)
			if d.Value != tt.want || !strings.Contains(d.Reason+d.Rule, tt.why) {
				t.Errorf("decision %s (%s; %s), want %s naming %q", d.Value, d.Reason, d.Rule, tt.want, tt.why)
			}
		})
	}
	if full := mergedCall(t, geminiMCPUpdate("completed", "tidy (good MCP Server)", `{"path":"`+plan+`"}`)); full.RawInput != nil {
		t.Errorf("a completed call's text (its result) was read as its input: %s", full.RawInput)
	}
}

// TestGeminiMCPCommandTitle: Gemini titles a call to an MCP tool whose
// arguments hold a string command with that command, so the server a rule
// denies is not shown: under a policy allowing what no rule names, the
// call needs approval; the same call titled with the display name is
// refused by the rule.
func TestGeminiMCPCommandTitle(t *testing.T) {
	ws := t.TempDir()
	p := testPolicy(t, "  default: allow\n  deny:\n    - mcp__notes__*\n")
	x := NewEnforcer(EnforceOptions{Engine: NewEngine(p, EngineOptions{Roots: []string{ws}, Home: t.TempDir()})})
	x.mu.Lock()
	x.sessionLocked("s1").cwd = ws
	x.mu.Unlock()
	args := `{"command":"echo hi","path":"` + filepath.Join(ws, "notes.md") + `"}`
	for title, want := range map[string]Value{"echo hi": RequireApproval, "read_text (notes MCP Server)": Deny} {
		d, _, _ := x.judgeCall("s1", mergedCall(t, geminiMCPUpdate("pending", title, args)))
		if d.Value != want {
			t.Errorf("titled %q: decision %s (%s), want %s", title, d.Value, d.Reason, want)
		}
	}
}

// TestGeminiShellDirText: an execute call with no rawInput whose text
// names its directory as Gemini CLI shows a run_shell_command's dir_path
// runs there: a relative one is refused as every relative path of a tool's
// input is, an absolute one is where the command is decided, and a text
// the bridge cannot read whole needs approval.
func TestGeminiShellDirText(t *testing.T) {
	x, ws := namesEnforcer(t)
	for _, tt := range []struct {
		name, text string
		want       Value
		why, cwd   string
	}{
		{"relative", "[in drafts] (Touch)", Deny, "relative", "drafts"},
		{"absolute", "[in " + ws + "/drafts] (Touch) [background]", RequireApproval, "", ws + "/drafts"},
		{"a ] in the description", "[in drafts] (Touch [x])", RequireApproval, "cannot tell", ws},
		{"the session's directory", "[current working directory " + ws + "] (Touch)", RequireApproval, "", ws},
	} {
		t.Run(tt.name, func(t *testing.T) {
			line := strings.Replace(geminiMCPUpdate("pending", "touch pwn.txt", tt.text), `"kind":"other"`, `"kind":"execute"`, 1)
			full := mergedCall(t, line)
			d, _, _ := x.judgeCall("s1", full)
			if d.Value != tt.want || !strings.Contains(d.Reason, tt.why) {
				t.Errorf("decision %s (%s), want %s naming %q", d.Value, d.Reason, tt.want, tt.why)
			}
			if got := ToolCallRequest(full, ws).Cwd; got != tt.cwd {
				t.Errorf("the command runs in %q, want %q", got, tt.cwd)
			}
		})
	}
}

// TestMCPToolFromTitle: the MCP tool a tool call's title names. Its rows are in
// testdata/cases/mcp_tool_titles.txt.
func TestMCPToolFromTitle(t *testing.T) {
	checkFuncCases(t, "mcpToolFromTitle", mcpToolFromTitle, "mcp_tool_titles.txt")
}
