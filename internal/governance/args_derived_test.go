package governance

import (
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
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n  deny: [Edit(**/.env)]\n")
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
