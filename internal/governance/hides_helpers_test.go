package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// engineOfPolicy writes text as the policy file name in dir and returns its
// engine over the workspace root, with dir/home as the home directory.
func engineOfPolicy(t *testing.T, dir, name, text, root string) *Engine {
	t.Helper()
	policyFile := filepath.Join(dir, name)
	if err := os.WriteFile(policyFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPolicy(policyFile)
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(p, EngineOptions{Roots: []string{root}, Home: dir + "/home"})
}

// checkRuleOfLine decides command as a terminal request and as a Bash tool
// call run in root, and fails unless each is want by a rule containing
// rule; where names the case's row for the message.
func checkRuleOfLine(t *testing.T, e *Engine, root, where, command string, want Value, rule string) {
	t.Helper()
	for _, action := range []string{ActionTerminalCreate, ActionToolCall} {
		req := Request{Action: action, Command: command, Cwd: root}
		if action == ActionToolCall {
			req.Tool, req.Kind = "Bash", "execute"
		}
		if d := e.Decide(req); d.Value != want || !strings.Contains(d.Rule, rule) {
			t.Errorf("%s: %s %q = %v; want %s by a rule containing %q", where, action, command, d, want, rule)
		}
	}
}

// checkMentioned decides, for each of paths, a call of the IDE's open
// tool whose input holds the path, and fails unless it is want.
func checkMentioned(t *testing.T, e *Engine, root string, want Value, paths ...string) {
	t.Helper()
	for _, p := range paths {
		req := Request{Action: ActionToolCall, Tool: "mcp__ide__open", Mentioned: []string{p}, Cwd: root}
		if d := e.Decide(req); d.Value != want {
			t.Errorf("a tool's input holding %s = %v; want %s", p, d, want)
		}
	}
}
