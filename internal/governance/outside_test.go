package governance

import (
	"path/filepath"
	"testing"
)

// TestOutsideRootsRestrictingRules: outside the workspace roots only a rule
// that names a fixed directory speaks for a path. A restricting rule
// without one (the demo's bare `ask: [Edit]`, an ask for `**/*.sh`) is no
// way around the built-in deny: asking the person about ~/.bashrc under a
// rule written for the workspace would make the roots a question a tired
// person answers yes to. A rule that names the place (`Edit(~/.bashrc)`,
// `Edit(//etc/hosts)`) decides it, and a deny is a deny wherever it is.
func TestOutsideRootsRestrictingRules(t *testing.T) {
	tmp := tempTree(t, []string{"ws", "home", "etc"}, nil)
	root, home := filepath.Join(tmp, "ws"), filepath.Join(tmp, "home")
	t.Setenv("HOME", home)
	p := testPolicy(t, "  default: allow\n"+
		"  ask: [Edit, Write(**/*.sh), Edit(~/.profile), Edit(/"+filepath.Join(tmp, "etc")+"/hosts)]\n"+
		"  escalate: [Write(**/*.conf)]\n"+
		"  deny: [Edit(**/*.key)]\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []struct {
		name string
		path string
		want Value
	}{
		{"bare ask, inside", root + "/a.go", RequireApproval},
		{"bare ask, outside", home + "/.bashrc", Deny},
		{"glob ask, outside", home + "/bin/run.sh", Deny},
		{"glob escalate, outside", tmp + "/etc/app.conf", Deny},
		{"ask naming the home file", home + "/.profile", RequireApproval},
		{"ask naming an absolute file", tmp + "/etc/hosts", RequireApproval},
		{"deny, outside", home + "/id.key", Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.Decide(Request{Action: ActionFSWrite, Paths: []string{tt.path}, Cwd: root})
			if d.Value != tt.want {
				t.Errorf("write %s = %v (%s: %s); want %v", tt.path, d.Value, d.Ref, d.Reason, tt.want)
			}
		})
	}
}
