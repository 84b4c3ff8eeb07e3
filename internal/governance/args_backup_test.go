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
	checkCommandRows(t, e, root, []commandRow{
		{"cp -b -S .md a.txt GOVERNANCE", Deny},
		{"cp --backup --suffix=.md a.txt GOVERNANCE", Deny},
		{"cp -bS.md a.txt GOVERNANCE", Deny},
		{"cp -S .md a.txt GOVERNANCE", Deny},
		{"mv -b --suffix .md a.txt GOVERNANCE", Deny},
		{"install -b -S .md a.txt GOVERNANCE", Deny},
		{"ln -fb -S .md a.txt GOVERNANCE", Deny},
		{"cp -b -S .jsonl a.txt audit/audit-log", Deny},
		{"cp -b -S .md -t . d/GOVERNANCE", Deny},
		{"cp -b -S $S a.txt GOVERNANCE", RequireApproval},
		{"SIMPLE_BACKUP_SUFFIX=.md cp -b a.txt GOVERNANCE", Deny},
		{"export SIMPLE_BACKUP_SUFFIX=.md; mv -b a.txt GOVERNANCE", Deny},
		{"cp --backup=simple a.txt audit/audit-log", Deny},
		{"cp -b a.txt audit/audit-log", Deny},
		{"cp -b a.txt GOVERNANCE", Deny},
		{"perl -i.md -pe 1 GOVERNANCE", Deny},
		{"perl -pi'*.md' -e 1 GOVERNANCE", Deny},
		{"perl -i'audit/*' -pe 1 audit-log.jsonl", Deny},
		{"ruby -i.md -pe 1 GOVERNANCE", Deny},
		{"perl -i$S -pe 1 GOVERNANCE", Deny},
		{"perl -i.bak -pe 1 a.txt", RequireApproval},
		{"rsync -b --suffix=.md a.txt GOVERNANCE", Deny},
		{"rsync -a --backup --backup-dir=.claude src/ d/", RequireApproval},
		{"patch -b -z .md GOVERNANCE p.diff", Deny},
		{"patch --backup --suffix=.md GOVERNANCE p.diff", Deny},
		{"patch -B GOVERNANCE. md p.diff", RequireApproval},
		{"patch -b -z .md -p1 -i p.diff", RequireApproval},
		{"patch -p1 -i p.diff", Allow},
		{"rsync -a d/ e/", Allow},
		{"cp -b a.txt d/", Allow},
		{"cp -b a.txt audit", Allow},
		{"SIMPLE_BACKUP_SUFFIX=.x cp -b a.txt d/b.txt", RequireApproval},
		{"cp a.txt d/b.txt", Allow},
		{"cp -b -S .orig a.txt d/b.txt", Allow},
	})
}
