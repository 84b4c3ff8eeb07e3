package governance

import (
	"path/filepath"
	"testing"
)

// TestDerivedNames decides the files split, csplit and the compressors
// write under names they derive from a word: split's prefix followed by
// its suffix letters ("split -a1 -l1 f GOVERNANCE.m" writes GOVERNANCE.md
// as its fourth piece), gzip's and xz's file followed by -S's suffix
// ("gzip -S .md GOVERNANCE" replaces the policy with the compressed
// GOVERNANCE), gunzip's file without it. A prefix split or csplit is given
// needs approval (its names are computed), and is refused where its
// static pieces (the prefix, csplit's format between its conversions)
// could join to a protected file: "csplit -f GOVERNANCE. -b md%.0d a.txt
// 1" empties the policy, d/.envr plus a letter is direnv's d/.envrc; a
// compressor's output is decided as a write.
func TestDerivedNames(t *testing.T) {
	root := tempTree(t, []string{"audit", "d"}, []string{"a.txt", "GOVERNANCE", "x.gz", "audit/audit-log.jsonl"})
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n  deny: [Edit(**/.env)]\n", ProtectedPath{Path: filepath.Join(root, "audit/audit-log.jsonl"), What: "the audit log", Read: true})
	checkCommandRows(t, e, root, []commandRow{
		{"split -a1 -l1 a.txt GOVERNANCE.m", Deny},
		{"split -b1 -a1 -x a.txt GOVERNANCE.m", Deny},
		{"split -a1 -l1 a.txt GOVERN$(true)ANCE.m", Deny},
		{"split -a1 -l1 --additional-suffix=d a.txt GOVERNANCE.", Deny},
		{"split -l1 a.txt d/.envr", Deny},
		{"split -l1 a.txt audit/audit-log.json", Deny},
		{"csplit -f GOVERNANCE.m -b d a.txt 1", Deny},
		{"csplit -s -f GOVERNANCE. -b md%.0d a.txt 1", Deny},
		{"csplit -s --prefix=GOVERNANCE. --suffix-format=md%.0d a.txt 1", Deny},
		{"csplit -s -f audit/audit-log.json -b l%.0d a.txt 1", Deny},
		{"csplit -s -f GOVERNANCE. -b %%md%d a.txt 1", RequireApproval},
		{"split -l1 a.txt d/part.", RequireApproval},
		{"csplit -f d/part -b %03d.txt a.txt 1", RequireApproval},
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
