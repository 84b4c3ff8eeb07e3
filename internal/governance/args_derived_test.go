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
	checkCommandLines(t, e, root, "derived_name_lines.txt", nil)
}
