package governance

import (
	"path/filepath"
	"strconv"
	"testing"
)

// TestNamesIn: a protected name counts in a command's text where it
// stands as a file name, not inside another name around it.
func TestNamesIn(t *testing.T) {
	for _, tt := range []struct {
		text, name string
		rotated    bool
		want       bool
	}{
		{"cat governance.md", "governance.md", false, true},
		{"governance.md", "governance.md", false, true},
		{"cat ./governance.md;ls", "governance.md", false, true},
		{"echo x>governance.md", "governance.md", false, true},
		{"cat governance.md$x", "governance.md", false, true},
		{"cat governance.md{,}", "governance.md", false, true},
		{"cat governance.md*", "governance.md", false, true},
		{"cp a --target=governance.md", "governance.md", false, true},
		{"tar -cfgovernance.md src", "governance.md", false, true},
		{"sort --output-governance.md", "governance.md", false, true},
		{"sed -n wgovernance.md a", "governance.md", false, true},
		{"sed s/a/b/wgovernance.md a", "governance.md", false, true},
		{"cat é" + "governance.md", "governance.md", false, true},
		{"cat src/governance.md/x", "governance.md", false, true},
		{"ls /ws/notes.governance.md.d/src", "governance.md", false, false},
		{"ls /ws/notes.governance.md.d", "governance.md", false, false},
		{"ls /ws/policy.mdx/", "policy.md", false, false},
		{"cat old-governance.md", "governance.md", false, false},
		{"cat v2_governance.md", "governance.md", false, false},
		{"cat governance.md.bak", "governance.md", false, false},
		{"cat governance.md-old", "governance.md", false, false},
		{"ls /ws/notes.governance.md.d/governance.md", "governance.md", false, true},
		{"cat audit/audit-log.jsonl.000001", "audit-log.jsonl", true, true},
		{"cat audit/.audit-log.jsonl.lock", "audit-log.jsonl", true, true},
		{"cat audit/audit-log.jsonl.000001", "audit-log.jsonl", false, false},
		{"cat audit/x.audit-log.jsonl.lock", "audit-log.jsonl", true, false},
		{"ls /ws/audit/", "/ws/audit/", false, true},
		{"ls /ws/audit/x", "/ws/audit/", false, true},
		{"", "governance.md", false, false},
		{"cat governance.md", "", false, false},
	} {
		if got := namesIn(tt.text, tt.name, tt.rotated); got != tt.want {
			t.Errorf("namesIn(%q, %q, rotated %v) = %v; want %v", tt.text, tt.name, tt.rotated, got, tt.want)
		}
	}
}

// TestCommandsWhereThePathHoldsAProtectedName: a workspace whose own path
// holds a protected file's name in a longer one (notes.GOVERNANCE.md.d
// holding the policy, Policy.mdX holding the POLICY.md it references) has
// its everyday commands decided by the policy, while every spelling that
// names the protected files is still refused.
func TestCommandsWhereThePathHoldsAProtectedName(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "notes.GOVERNANCE.md.d")
	tree{texts: map[string]string{
		"notes.GOVERNANCE.md.d/GOVERNANCE.md": "---\nschema: governance.workspace/v1\nname: ws\ntitle: t\ndescription: d\nversion: 1.0.0\n" +
			"policies:\n  - id: prod-deploys\n    ref: ./Policy.mdX/POLICY.md\n    appliesTo: tool.call\n" +
			"rules:\n  default: allow\n  allow: [Read, Edit, Write, Bash]\n---\n",
		"notes.GOVERNANCE.md.d/Policy.mdX/POLICY.md": "---\nschema: agentgovernance/v1\ndoctype: policy\nslug: prod-deploys\nversion: 1.0.0\n" +
			"match:\n  action: tool.call\n  subject: \"command:kubectl apply:*\"\ndecision: escalate\n---\n",
		"notes.GOVERNANCE.md.d/Policy.mdX/notes.txt": "notes",
		"notes.GOVERNANCE.md.d/src/a.go":             "package a",
	}}.make(t, tmp)
	p, err := LoadPolicy(root + "/GOVERNANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	prot := SelfProtected(p, nil)
	if len(prot) != 2 {
		t.Fatalf("policy files %v; want the GOVERNANCE.md and its POLICY.md", p.Files())
	}
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: prot})
	for _, c := range caseRows(t, "protected_name_path_lines.txt", 3, map[string]string{"$ROOT": root}) {
		line, cwd := c.fields[0], c.fields[1]
		refused, err := strconv.ParseBool(c.fields[2])
		if err != nil {
			t.Fatalf("protected_name_path_lines.txt:%d: %v", c.line, err)
		}
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: cwd})
		if got := d.Ref == "self-protection"; got != refused {
			t.Errorf("%q in %s: Decide = %v (ref %s: %s); want self-protection %v", line, cwd, d.Value, d.Ref, d.Reason, refused)
		}
	}
}
