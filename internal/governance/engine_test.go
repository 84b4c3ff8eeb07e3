package governance

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// testEngine loads testdata/policy/GOVERNANCE.md with a fresh workspace
// root holding a src dir, a .env, and symlinks pointing in and out.
func testEngine(t *testing.T) (*Engine, string) {
	t.Helper()
	p := testdataPolicy(t)
	tmp, root := tempWorkspace(t)
	outside := filepath.Join(tmp, "outside")
	tree{
		dirs:  []string{"ws/src", "ws/secrets", "outside"},
		files: []string{"ws/.env", "ws/src/a.go", "outside/passwd"},
		links: map[string]string{
			"ws/src/escape":     outside,             // dir link out of the root
			"ws/src/pw.go":      outside + "/passwd", // file link out
			"ws/src/config.txt": root + "/.env",      // link to a denied file
			"ws/src/notsecret":  root + "/secrets",   // link to a denied dir
		},
	}.make(t, tmp)
	return NewEngine(p, EngineOptions{Roots: []string{root}, Home: tmp + "/home"}), root
}

func TestDecidePaths(t *testing.T) {
	e, root := testEngine(t)
	for _, c := range caseRows(t, "decide_paths.txt", 5, map[string]string{"$ROOT": root}) {
		action, path, want, rule := c.fields[1], c.fields[2], Value(c.fields[3]), c.fields[4]
		t.Run(c.fields[0], func(t *testing.T) {
			d := e.Decide(Request{Action: action, Paths: []string{path}, Cwd: root})
			if d.Value != want || !strings.Contains(d.Rule, rule) {
				t.Errorf("decide_paths.txt:%d: Decide(%s %s) = %v; want %s by a rule containing %q", c.line, action, path, d, want, rule)
			}
		})
	}
}

func TestDecideCommands(t *testing.T) {
	e, root := testEngine(t)
	for _, c := range caseRows(t, "decide_commands.txt", 4, map[string]string{"$ROOT": root}) {
		command, rule := c.fields[1], c.fields[3]
		t.Run(c.fields[0], func(t *testing.T) {
			for _, action := range []string{ActionTerminalCreate, ActionToolCall} {
				req := Request{Action: action, Command: command, Cwd: root}
				if action == ActionToolCall {
					req.Tool, req.Kind = "Bash", "execute"
				}
				d := e.Decide(req)
				want := Value(c.fields[2])
				if action == ActionTerminalCreate && want == Escalate {
					want = RequireApproval // the policy escalates tool.call only
				}
				if d.Value != want || want == Value(c.fields[2]) && !strings.Contains(d.Rule, rule) {
					t.Errorf("decide_commands.txt:%d: %s %q = %v; want %s by a rule containing %q", c.line, action, command, d, want, rule)
				}
			}
		})
	}
}

func TestDecideTools(t *testing.T) {
	e, root := testEngine(t)
	tests := []struct {
		name string
		req  Request
		want Value
		rule string
	}{
		{"denied tool by name", Request{Action: ActionToolCall, Tool: "WebSearch"}, Deny, "WebSearch"},
		{"fetch allowed domain", Request{Action: ActionToolCall, Tool: "WebFetch", URL: "https://docs.example.com/x"}, Allow, "domain:example.com"},
		{"fetch denied domain", Request{Action: ActionToolCall, Kind: "fetch", URL: "https://EVIL.example/x"}, Deny, "domain:evil.example"},
		{"fetch lookalike", Request{Action: ActionToolCall, Kind: "fetch", URL: "https://notexample.com/"}, RequireApproval, "default"},
		{"unknown tool default", Request{Action: ActionToolCall, Tool: "Task"}, RequireApproval, "default"},
		{"read-kind tool call with location", Request{Action: ActionToolCall, Kind: "read", Paths: []string{root + "/.env"}}, Deny, "Read(**/.env)"},
		{"edit-kind tool call", Request{Action: ActionToolCall, Kind: "edit", Paths: []string{root + "/src/x.go"}}, Allow, "Edit(./src/**)"},
		{"execute with unknown command", Request{Action: ActionToolCall, Kind: "execute", CommandUnknown: true}, RequireApproval, "default"},
		{"move out of root", Request{Action: ActionToolCall, Kind: "move", Paths: []string{root + "/src/a.go", "/tmp/a.go"}}, Deny, "workspace roots"},
		{"session in root", Request{Action: ActionSessionNew, Paths: []string{root}}, Allow, "inside the workspace roots"},
		{"session in a denied dir", Request{Action: ActionSessionNew, Paths: []string{root + "/secrets"}}, Allow, "inside the workspace roots"},
		{"session outside root", Request{Action: ActionSessionNew, Paths: []string{"/"}}, Deny, "workspace roots"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.req.Cwd == "" {
				tt.req.Cwd = root
			}
			d := e.Decide(tt.req)
			if d.Value != tt.want || !strings.Contains(d.Rule, tt.rule) {
				t.Errorf("Decide(%+v) = %v; want %s by a rule containing %q", tt.req, d, tt.want, tt.rule)
			}
		})
	}
	if runtime.GOOS == "windows" {
		t.Skip("paths are POSIX")
	}
}
