package governance

import (
	"path/filepath"
	"testing"
)

// TestBackupNames decides the backups cp, mv, install and ln make of the
// file they replace: with -b or --backup, or a suffix (-S, --suffix),
// the file there is renamed to its name followed by the suffix ("~" by
// default), a name no word of the line holds. "cp -b -S .md evil
// GOVERNANCE" renames the agent's file GOVERNANCE over the policy
// GOVERNANCE.md. A suffix from SIMPLE_BACKUP_SUFFIX, or computed when the
// line runs, is not known and needs approval, and is refused where the
// file backed up followed by any suffix could be a protected one
// ("SIMPLE_BACKUP_SUFFIX=.md cp -b a.txt GOVERNANCE", in the request's env
// too). perl's and ruby's -i make backups as sed's -i does: "perl -i.md
// -pe 1 GOVERNANCE".
func TestBackupNames(t *testing.T) {
	root := tempTree(t, []string{"audit", "d"}, []string{"a.txt", "GOVERNANCE", "audit/audit-log"})
	tree{texts: map[string]string{"p.diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n"}}.make(t, root)
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n", ProtectedPath{Path: filepath.Join(root, "audit/audit-log.jsonl"), What: "the audit log", Read: true})
	checkCommandLines(t, e, root, "backup_name_lines.txt", nil)
}
