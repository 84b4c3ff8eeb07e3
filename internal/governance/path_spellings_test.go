package governance

import (
	"slices"
	"strings"
	"testing"
)

// TestOtherSpellings: a path of ASCII alone has no other spelling; one
// with accents has its composed and decomposed forms; a folded letter is
// folded in each.
func TestOtherSpellings(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/w/src/a.go", nil},
		{"/w/donn\u00e9es/a", []string{"/w/donne\u0301es/a"}},
		{"/w/donne\u0301es/a", []string{"/w/donn\u00e9es/a"}},
		{"/w/\u017fecrets/caf\u00e9", []string{"/w/secrets/caf\u00e9", "/w/\u017fecrets/cafe\u0301", "/w/secrets/cafe\u0301"}},
		{"/w/\u212aey", []string{"/w/Key", "/w/key"}},
	} {
		got := otherSpellings(tc.path)
		if !slices.Equal(got, tc.want) {
			t.Errorf("otherSpellings(%q) = %q; want %q", tc.path, got, tc.want)
		}
	}
}

// TestDecideCanonicallyEquivalentNames: APFS and HFS+ open a name however
// its accents are written (composed, "é", or decomposed, "e" and a
// combining acute), so a rule written one way holds against a path, a
// command's word or a tool call written the other, and a name that only
// looks alike is decided by its own rules.
func TestDecideCanonicallyEquivalentNames(t *testing.T) {
	composed, decomposed := "donn\u00e9es", "donne\u0301es"
	for _, rule := range []string{composed, decomposed} {
		root := t.TempDir()
		tree{texts: map[string]string{"GOVERNANCE.md": "---\nschema: governance.workspace/v1\nname: ws\ntitle: t\ndescription: d\nversion: 1.0.0\n" +
			"rules:\n  default: allow\n  deny: ['Read(./" + rule + "/**)', 'Edit(./Caf\u00e9.txt)']\n  allow: [Read, 'Bash(cat:*)']\n---\n"}}.make(t, root)
		p, err := LoadPolicy(root + "/GOVERNANCE.md")
		if err != nil {
			t.Fatal(err)
		}
		e := NewEngine(p, EngineOptions{Roots: []string{root}})
		for _, tc := range []struct {
			name string
			req  Request
			want Value
		}{
			{"read composed", Request{Action: ActionFSRead, Paths: []string{root + "/" + composed + "/a"}}, Deny},
			{"read decomposed", Request{Action: ActionFSRead, Paths: []string{root + "/" + decomposed + "/a"}}, Deny},
			{"read upper decomposed", Request{Action: ActionFSRead, Paths: []string{root + "/DONNE\u0301ES/a"}}, Deny},
			{"cat decomposed", Request{Action: ActionTerminalCreate, Command: "cat " + decomposed + "/a"}, Deny},
			{"cat composed", Request{Action: ActionTerminalCreate, Command: "cat " + composed + "/a"}, Deny},
			{"write decomposed", Request{Action: ActionFSWrite, Paths: []string{root + "/Cafe\u0301.txt"}}, Deny},
			{"echo into decomposed", Request{Action: ActionTerminalCreate, Command: "echo x > Cafe\u0301.txt"}, Deny},
			{"another name", Request{Action: ActionFSRead, Paths: []string{root + "/donnees/a"}}, Allow},
			{"another accent", Request{Action: ActionFSRead, Paths: []string{root + "/donne\u0300es/a"}}, Allow},
		} {
			tc.req.Cwd = root
			d := e.Decide(tc.req)
			if d.Value != tc.want {
				t.Errorf("rule %+q, %s: %v (%s); want %v", rule, tc.name, d.Value, d.Reason, tc.want)
			}
			if tc.want == Deny && !strings.Contains(d.Reason, "denied by") {
				t.Errorf("rule %+q, %s: reason %q names no deny rule", rule, tc.name, d.Reason)
			}
		}
	}
}
