package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// defaultHidesPolicy asks before keys are edited and allows a few commands
// that write the files they name.
const defaultHidesPolicy = `---
schema: governance.workspace/v1
name: default-hides
title: keys are asked about
description: the keys may be changed only with the person's approval
version: 1.0.0
autonomy:
  level: 2
  defaultApproval: on-mutate
rules:
  ask:
    - Edit(./keys/*.key)
  allow:
    - Bash(echo:*)
    - Bash(sed:*)
    - Bash(tee:*)
    - Bash(chmod:*)
    - Bash(touch:*)
---
`

// TestDefaultHidesNoRule: a path whose verdict has the default's value but
// comes from a rule or a built-in (the ask rule where a symlink leads, the
// hard-link rule for a file with other names) is decided by that rule, not
// by the default, which an allowed command's operands are written under.
func TestDefaultHidesNoRule(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	tree{
		dirs:      []string{"ws/keys/sub", "ws/notes"},
		files:     []string{"ws/keys/a.key", "ws/keys/b.key", "ws/notes/plain.txt"},
		links:     map[string]string{"ws/notes/link.key": "../keys/a.key", "ws/notes/sub": "../keys/sub"},
		hardLinks: map[string]string{"ws/notes/h.txt": "ws/keys/b.key"},
	}.make(t, tmp)
	policyFile := filepath.Join(tmp, "GOVERNANCE.md")
	if err := os.WriteFile(policyFile, []byte(defaultHidesPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPolicy(policyFile)
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Home: tmp + "/home"})
	for _, c := range caseRows(t, "default_hides_lines.txt", 4, nil) {
		command, want, rule := c.fields[1], Value(c.fields[2]), c.fields[3]
		t.Run(c.fields[0], func(t *testing.T) {
			for _, action := range []string{ActionTerminalCreate, ActionToolCall} {
				req := Request{Action: action, Command: command, Cwd: root}
				if action == ActionToolCall {
					req.Tool, req.Kind = "Bash", "execute"
				}
				if d := e.Decide(req); d.Value != want || !strings.Contains(d.Rule, rule) {
					t.Errorf("default_hides_lines.txt:%d: %s %q = %v; want %s by a rule containing %q", c.line, action, command, d, want, rule)
				}
			}
		})
	}
}
