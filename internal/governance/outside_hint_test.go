package governance

import (
	"strings"
	"testing"
)

// TestOutsideRootsHint: a path refused (or, for a command's read, asked
// about) as outside the workspace roots names a rule that would decide it,
// and a policy given that rule as an allow rule allows the same request.
func TestOutsideRootsHint(t *testing.T) {
	root := t.TempDir()
	out := tempTree(t, []string{"x[1]", "it's, *"}, []string{"notes.txt", "x[1]/a?.txt", "it's, */b.txt"})
	for _, req := range []Request{
		{Action: ActionFSWrite, Paths: []string{out + "/x[1]/a?.txt"}},
		{Action: ActionFSRead, Paths: []string{out + "/it's, */b.txt"}},
		{Action: ActionFSWrite, Paths: []string{out + "/notes.txt"}},
		{Action: ActionFSRead, Paths: []string{out + "/notes.txt"}},
		{Action: ActionTerminalCreate, Command: "echo x > " + out + "/notes.txt"},
		{Action: ActionTerminalCreate, Command: "cat " + out + "/notes.txt"},
	} {
		req.Cwd = root
		e := NewEngine(testPolicy(t, "  default: allow\n"), EngineOptions{Roots: []string{root}})
		d := e.Decide(req)
		_, hint, ok := strings.Cut(d.Reason, "such as ask: [")
		hint = strings.TrimSuffix(hint, "]")
		if q, quoted := strings.CutPrefix(hint, "'"); quoted {
			hint = strings.ReplaceAll(strings.TrimSuffix(q, "'"), "''", "'")
		}
		if d.Value == Allow || !ok || hint == "" {
			t.Fatalf("%+v: %v (%s); want a refusal naming a rule", req, d.Value, d.Reason)
		}
		e = NewEngine(testPolicy(t, "  default: allow\n  allow: ['"+strings.ReplaceAll(hint, "'", "''")+"']\n"), EngineOptions{Roots: []string{root}})
		if d := e.Decide(req); d.Value != Allow {
			t.Errorf("%+v under allow: [%s]: %v (%s); want allow", req, hint, d.Value, d.Reason)
		}
	}
}
