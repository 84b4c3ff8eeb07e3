package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDerivedNames decides the files split, csplit and the compressors
// write under names they derive from a word: split's prefix followed by
// its suffix letters ("split -a1 -l1 f GOVERNANCE.m" writes GOVERNANCE.md
// as its fourth piece), gzip's and xz's file followed by -S's suffix
// ("gzip -S .md GOVERNANCE" replaces the policy with the compressed
// GOVERNANCE), gunzip's file without it. A prefix split or csplit is given
// needs approval (its names are computed); a compressor's output is
// decided as a write.
func TestDerivedNames(t *testing.T) {
	root := tempTree(t, []string{"d"}, []string{"a.txt", "GOVERNANCE", "x.gz"})
	pol := filepath.Join(root, "GOVERNANCE.md")
	if err := os.WriteFile(pol, []byte("---\nschema: governance.workspace/v1\nname: test-policy\ntitle: t\ndescription: t\nversion: 1.0.0\nrules:\n  allow: [Bash]\n  deny: [Edit(**/.env)]\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPolicy(pol)
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: []ProtectedPath{{Path: pol, What: "the governance policy"}}})
	checkCommandRows(t, e, root, []commandRow{
		{"split -a1 -l1 a.txt GOVERNANCE.m", RequireApproval},
		{"split -l1 a.txt d/.envr", RequireApproval},
		{"csplit -f GOVERNANCE.m -b d a.txt 1", RequireApproval},
		{"gzip -S .md GOVERNANCE", Deny},
		{"gzip --suffix=.md GOVERNANCE", Deny},
		{"xz -k -S .md GOVERNANCE", Deny},
		{"gzip -dS .gz .env.gz", Deny},
		{"gunzip .env.gz", Deny},
		{"split -l 100 a.txt", Allow},
		{"gzip -k a.txt", Allow},
		{"gunzip x.gz", Allow},
	})
}
