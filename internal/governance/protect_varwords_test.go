package governance

import (
	"path/filepath"
	"testing"
)

// TestNamesFromAssignedVariables checks that a word built from variables
// the same line gives static values ("a=GOVERNANCE; echo x > $a.md",
// "p='*.md'; sed -i s/a/b/ $p") is refused where those values make a
// protected name, and asked about, as any name known only when the line
// runs is, where they make none.
func TestNamesFromAssignedVariables(t *testing.T) {
	root := tempTree(t, []string{"audit", "sub"}, []string{"a.txt", "notes.md", "audit/audit-log.jsonl"})
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n", ProtectedPath{Path: filepath.Join(root, "audit/audit-log.jsonl"), What: "the audit log"})
	checkCommandLines(t, e, root, "variable_name_lines.txt", nil)
}

// TestSubstitutedWords checks the words a word as written makes with the
// values given its variables, and that a word expanding anything else
// makes none.
func TestSubstitutedWords(t *testing.T) {
	vals := map[string][]string{"a": {"GOVERNANCE", "x"}, "d": {".git"}}
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"$a.md", []string{"GOVERNANCE.md", "x.md"}},
		{`"${d}"/config`, []string{".git/config"}},
		{"$d/$a", []string{".git/GOVERNANCE", ".git/x"}},
		{"${a[0]}.md", []string{"GOVERNANCE.md", "x.md"}},
		{`"${d[@]}"/config`, []string{".git/config"}},
		{"${!d[@]}", nil},
		{"${#d[@]}", nil},
		{"$b.md", nil},
		{"${a:-y}.md", []string{"GOVERNANCE.md", "x.md", "y.md"}},
		{"${b:-y}.md", []string{"y.md"}},
		{"${a:+y}.md", []string{"y.md"}},
		{"${a#GOVERN}.md", []string{"ANCE.md", "x.md"}},
		{"${a%ANCE}.md", []string{"GOVERN.md", "x.md"}},
		{"${a,,}.md", []string{"governance.md", "x.md"}},
		{"${a^}.md", []string{"GOVERNANCE.md", "X.md"}},
		{"${a#G*}.md", []string{"OVERNANCE.md", "x.md"}},
		{"${a:-$(echo y)}.md", nil},
		{"${a/G/g}.md", []string{"gOVERNANCE.md", "x.md"}},
		{"${a//N/n}.md", []string{"GOVERnAnCE.md", "x.md"}},
		{"${a/G*/g}.md", []string{"g.md", "x.md"}},
		{"${a/#GOV/g}.md", []string{"gERNANCE.md", "x.md"}},
		{"${a:1:3}.md", []string{"OVE.md", ".md"}},
		{"${b:0:0}.md", []string{".md"}},
		{"${a:$n}.md", []string{"GOVERNANCE.md", "x.md"}}, // n unset
		{"$(echo a).md", nil},
	} {
		got := substitutedWords(c.in, vals)
		if len(got) != len(c.want) {
			t.Errorf("substitutedWords(%q) = %q; want %q", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("substitutedWords(%q) = %q; want %q", c.in, got, c.want)
				break
			}
		}
	}
}
