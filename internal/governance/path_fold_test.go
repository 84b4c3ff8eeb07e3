package governance

import (
	"testing"
)

// TestDecideCaseFoldedNames: a case-insensitive file system (APFS and
// HFS+ as macOS formats them by default, where Zed and its agents mostly
// run) folds a few non-ASCII letters into ASCII ones: the Kelvin sign is
// k, the long s is s, ß is ss and the ligature ﬁ is fi. There
// ".claude/ſettings.json" opens Claude's settings and "audit-log.jſonl"
// the audit log, so a path is also decided as such a file system reads it,
// and the strictest decision stands; a name that folds to nothing
// restricted is decided as before.
func TestDecideCaseFoldedNames(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tests := []protectedCase{
		{"Claude's settings with a long s", Request{Action: ActionFSWrite, Paths: []string{root + "/.claude/\u017fettings.json"}}, Deny, "Claude Code's project settings"},
		{"the audit log with a long s", Request{Action: ActionFSRead, Paths: []string{root + "/audit/audit-log.j\u017fonl"}}, Deny, "the audit log"},
		{"the git config with a ligature", Request{Action: ActionFSWrite, Paths: []string{root + "/.git/con\ufb01g"}}, Deny, "git"},
		{"a git hook with a Kelvin sign", Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{root + "/.git/hoo\u212as/pre-commit"}}, Deny, "git"},
		{"Zed's settings by a command", Request{Action: ActionTerminalCreate, Command: "echo '{}' > .zed/\u017fettings.json"}, Deny, "Zed's project settings"},
		{"a German name", Request{Action: ActionFSWrite, Paths: []string{root + "/src/Stra\u00dfe.md"}}, Allow, ""},
		{"a name with a long s elsewhere", Request{Action: ActionFSWrite, Paths: []string{root + "/src/\u017fonst.txt"}}, Allow, ""},
	}
	checkProtected(t, e, root, tests)
}

// TestDecideCaseFoldedRule: a deny rule meets a path that folds to what it
// names.
func TestDecideCaseFoldedRule(t *testing.T) {
	root := t.TempDir()
	tree{texts: map[string]string{"GOVERNANCE.md": "---\nschema: governance.workspace/v1\nname: ws\ntitle: t\ndescription: d\nversion: 1.0.0\n" +
		"rules:\n  default: allow\n  deny: ['Read(**/secrets/**)']\n  allow: [Read, Edit]\n---\n"}}.make(t, root)
	p, err := LoadPolicy(root + "/GOVERNANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, name := range []string{"secrets/k", "\u017fecrets/k", "SECRET\u017f/k"} {
		d := e.Decide(Request{Action: ActionFSRead, Paths: []string{root + "/" + name}, Cwd: root})
		if d.Value != Deny {
			t.Errorf("reading %s: %v (%s); want deny by Read(**/secrets/**)", name, d.Value, d.Reason)
		}
	}
}
