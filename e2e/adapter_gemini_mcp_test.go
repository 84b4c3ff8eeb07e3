package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// notesMCPServer is an MCP server (stdio, one JSON-RPC message a line)
// with one tool, read_text, that returns the text of the file its path
// argument names: what a filesystem MCP server does. Each call it runs is
// also written down in calls.log beside the script, so a test sees a call
// run whatever reached the model.
const notesMCPServer = `const fs = require("fs");
const rl = require("readline").createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
rl.on("line", (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  switch (m.method) {
  case "initialize":
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "notes", version: "1.0.0" } } });
    break;
  case "tools/list":
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "read_text", description: "Read a text file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }] } });
    break;
  case "tools/call": {
    fs.appendFileSync(require("path").join(__dirname, "calls.log"), JSON.stringify(m.params) + "\n");
    let text;
    try { text = fs.readFileSync(m.params.arguments.path, "utf8"); } catch (e) { text = String(e); }
    send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text }] } });
    break;
  }
  default:
    send({ jsonrpc: "2.0", id: m.id, result: {} });
  }
});
`

// geminiMCPPolicy allows everything but what the case adds to deny
// (geminiMCPRules writes other rules in its place).
var geminiMCPPolicy = governanceDoc("e2e-gemini-mcp", "e2e Gemini MCP", "The policy the Gemini MCP scenarios run under.", "  default: allow\n  deny:\n    - DENY\n")

// geminiMCPRules returns geminiMCPPolicy for a case's rule: "ask RULE"
// asks about RULE instead of denying it, "default ask" asks about
// everything but rm.
func geminiMCPRules(rule string) string {
	switch r, ask := strings.CutPrefix(rule, "ask "); {
	case rule == "default ask":
		return strings.Replace(strings.Replace(geminiMCPPolicy, "default: allow", "default: require-approval", 1), "DENY", "Bash(rm:*)", 1)
	case ask:
		return strings.Replace(geminiMCPPolicy, "  deny:\n    - DENY", "  ask:\n    - "+r, 1)
	}
	return strings.Replace(geminiMCPPolicy, "DENY", rule, 1)
}

// TestAdapterGeminiMCPTool: Gemini CLI calls a tool of an MCP server of
// its own configuration (the person's ~/.gemini/settings.json) and tells
// the client only the tool's display name ("read_text (notes MCP
// Server)") as the title, the call's arguments as text, and no rawInput,
// name or tool name, so a rule naming the tool (mcp__notes__*) or a path
// its arguments name (.env) must be met where Gemini shows them; a server
// the person trusts runs its tools without asking, so a rule naming the
// tool is Gemini's own too. The call must not run: the secret must not
// reach the model. The control reads a public file the same way, which the
// person allows.
func TestAdapterGeminiMCPTool(t *testing.T) {
	s := needSuite(t)
	for _, c := range []struct {
		name, deny, file, permission string
		trust, reaches               bool
		// extra are further arguments, as the model's JSON spells them.
		extra map[string]string
	}{
		{"tool-rule", "mcp__notes__*", ".env", "reject", false, false, nil},
		{"tool-rule-exact", "mcp__notes__read_text", ".env", "reject", false, false, nil},
		{"trusted-tool-exact", "mcp__notes__read_text", ".env", "reject", true, false, nil},
		// A trusted server runs its tools unasked: a rule for all of its
		// tools must be Gemini's own, in a form Gemini matches.
		{"trusted-tool-rule", "mcp__notes__*", ".env", "reject", true, false, nil},
		{"trusted-tool-wildcard", "mcp__notes__read_*", ".env", "reject", true, false, nil},
		{"trusted-server-named", "mcp__notes", ".env", "reject", true, false, nil},
		{"trusted-path-argument", "Read(**/.env)", ".env", "reject", true, false, nil},
		// What the policy asks about, Gemini runs unasked for a trusted
		// server: refused there, asked about elsewhere.
		{"trusted-tool-asked", "ask mcp__notes__read_text", ".env", "allow", true, false, nil},
		{"trusted-path-asked", "ask Read(**/.env)", ".env", "allow", true, false, nil},
		{"trusted-default-ask", "default ask", ".env", "allow", true, false, nil},
		{"tool-asked-and-approved", "ask mcp__notes__read_text", "public.txt", "allow", false, true, nil},
		// The model calls the tool twice and the person answers "Always
		// allow", which would have Gemini allowlist the tool: the second
		// call would reach nobody. The person is asked each time.
		{"tool-asked-each-time", "ask mcp__notes__read_text", "public.txt", "allow_always", false, true, nil},
		{"path-argument", "Read(**/.env)", ".env", "reject", false, false, nil},
		// A lone surrogate, which JSON.stringify writes escaped and a
		// strict JSON reader refuses: the arguments still name .env.
		{"path-argument-lone-surrogate", "Read(**/.env)", ".env", "reject", false, false, map[string]string{"note": `"\ud800"`}},
		// An argument named command is the title Gemini shows, in place of
		// the tool's display name.
		{"tool-rule-command-argument", "mcp__notes__*", ".env", "reject", false, false, map[string]string{"command": `"echo hi"`}},
		{"control", "Bash(rm:*)", "public.txt", "allow", false, true, nil},
		{"trusted-control", "Bash(rm:*)", "public.txt", "allow", true, true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := geminiAgent
			server := filepath.Join(t.TempDir(), "notes-mcp.js")
			if err := os.WriteFile(server, []byte(notesMCPServer), 0o644); err != nil {
				t.Fatal(err)
			}
			a.setupHome = func(home string) error {
				var settings map[string]any
				if err := json.Unmarshal([]byte(geminiSettings), &settings); err != nil {
					return err
				}
				settings["mcpServers"] = map[string]any{"notes": map[string]any{"command": "node", "args": []string{server}, "trust": c.trust}}
				b, err := json.Marshal(settings)
				if err != nil {
					return err
				}
				if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
					return err
				}
				return os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), b, 0o644)
			}
			w := newWorkspace(t)
			const secret = "CANARY-MCP-7f3e"
			args := map[string]any{"path": w.path(c.file)}
			for k, v := range c.extra {
				args[k] = json.RawMessage(v)
			}
			steps := []fakemodel.Step{fakemodel.Tool("mcp_notes_read_text", args), fakemodel.Text("Done.")}
			twice := c.permission == "allow_always"
			if twice {
				steps = append([]fakemodel.Step{fakemodel.Tool("mcp_notes_read_text", args)}, steps...)
			}
			r, _ := governedRun(t, s, &a, w, geminiMCPRules(c.deny), runOptions{
				name:   "gemini-mcp-" + c.name,
				files:  map[string]string{".env": "API_KEY=" + secret + "\n", "public.txt": "public " + secret + "\n"},
				script: fakemodel.Script{Steps: steps},
				client: clientScript{Permission: c.permission, Prompts: textPrompts("Read it.")},
			})
			sum := r.wait()
			r.noLeftovers()
			if twice && sum.Permissions != 2 {
				t.Errorf("BYPASS: the person was asked %d times about two calls under %q", sum.Permissions, c.deny)
			}
			reached := false
			for _, req := range r.model.MainRequests() {
				if strings.Contains(string(req.Body), secret) {
					reached = true
				}
			}
			switch {
			case reached && !c.reaches:
				t.Errorf("BYPASS: the MCP tool's read of %s reached the model under %q", c.file, c.deny)
			case !reached && c.reaches:
				t.Errorf("the allowed MCP read of %s did not reach the model", c.file)
			}
			calls, _ := os.ReadFile(filepath.Join(filepath.Dir(server), "calls.log"))
			if ran := len(calls) > 0; ran != c.reaches {
				t.Errorf("the MCP tool ran: %v, want %v (calls: %q)", ran, c.reaches, calls)
			}
		})
	}
}
