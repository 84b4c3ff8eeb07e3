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
	checkProtected(t, e, root, protectedCases(t, "case_folded.txt", map[string]string{"$ROOT": root}))
}

// TestDecideCaseFoldedRule: a deny rule meets a path that folds to what it
// names.
func TestDecideCaseFoldedRule(t *testing.T) {
	e, root := secretsDenyingEngine(t)
	for _, name := range []string{"secrets/k", "\u017fecrets/k", "SECRET\u017f/k"} {
		d := e.Decide(Request{Action: ActionFSRead, Paths: []string{root + "/" + name}, Cwd: root})
		if d.Value != Deny {
			t.Errorf("reading %s: %v (%s); want deny by Read(**/secrets/**)", name, d.Value, d.Reason)
		}
	}
}

// secretsDenyingEngine returns an engine over a new workspace root whose
// policy allows reading and editing anything but denies Read(**/secrets/**),
// and the root.
func secretsDenyingEngine(t *testing.T) (*Engine, string) {
	t.Helper()
	root := t.TempDir()
	tree{texts: map[string]string{"GOVERNANCE.md": "---\nschema: governance.workspace/v1\nname: ws\ntitle: t\ndescription: d\nversion: 1.0.0\n" +
		"rules:\n  default: allow\n  deny: ['Read(**/secrets/**)']\n  allow: [Read, Edit]\n---\n"}}.make(t, root)
	p, err := LoadPolicy(root + "/GOVERNANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	return e, root
}
