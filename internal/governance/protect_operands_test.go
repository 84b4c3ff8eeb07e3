package governance

import (
	"strings"
	"testing"
)

// TestDecideProtectedOperands checks the command lines that reach a
// protected file without naming it: through a symlink or hard link, a
// directory they delete, move or change recursively, or a directory they
// copy a source of the same names into; and that everyday lines naming
// the workspace are not refused for holding the policy.
func TestDecideProtectedOperands(t *testing.T) {
	e, root, tmp := protectedWorkspace(t)
	tree{
		files: []string{"evil/GOVERNANCE.md", "plain/a.go", "evil-audit/audit-log.jsonl", "repo/.git/HEAD"},
		links: map[string]string{"logs": "audit", "cfg": ".", "notes.md": "GOVERNANCE.md", "src/up": ".."},
	}.make(t, root)
	var tests []protectedCase
	for _, c := range caseRows(t, "protected_operands.txt", 4, map[string]string{"$ROOT": root, "$TMP": tmp}) {
		req := Request{Action: ActionTerminalCreate, Command: c.fields[1], Cwd: root}
		tests = append(tests, protectedCase{name: c.fields[0], req: req, want: Value(c.fields[2]), what: c.fields[3]})
	}
	checkProtected(t, e, root, tests)
}

// TestProtectedOperandsBounded checks that a line naming more files than
// are looked up is refused, not half checked.
func TestProtectedOperandsBounded(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	var b strings.Builder
	b.WriteString("cat")
	for i := 0; i <= maxOperands; i++ {
		b.WriteString(" f" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "/" + strings.Repeat("y", i/26))
	}
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: b.String(), Cwd: root})
	if d.Value != Deny || !strings.Contains(d.Reason, "too many to check") {
		t.Errorf("a line naming %d files: %v (%s); want deny as too many to check", maxOperands+1, d.Value, d.Reason)
	}
}
