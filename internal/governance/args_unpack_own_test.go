package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUnpackUnknownNamesReachOwn checks that an extraction whose names the
// bridge cannot read (from the command's input, or in a format it does
// not list) is refused where it extracts into a directory holding the
// policy or the audit log, whatever rule allows the program, and only
// asked about elsewhere; an archive whose names it reads is decided by
// them as before.
func TestUnpackUnknownNamesReachOwn(t *testing.T) {
	rules := "  default: ask\n  allow:\n    - Edit(./**)\n    - Bash(tar:*)\n    - Bash(git:*)\n    - Bash(base64:*)\n    - Bash(patch:*)\n    - Bash(cpio:*)\n    - Bash(7z:*)\n"
	setup := func(t *testing.T) string {
		root := tempTree(t, []string{"sub", "audit"}, []string{"audit/audit-log.jsonl"})
		if err := os.WriteFile(filepath.Join(root, "ok.tar"), tarBytes(t, "", "sub/a.txt"), 0o644); err != nil {
			t.Fatal(err)
		}
		return root
	}
	unknown := []string{
		"git archive evil | tar -x",
		"base64 -d e.b64 | tar -xz",
		"tar -xzf - < e.tgz",
		"tar -x -f /dev/stdin < e.tar",
		"base64 -d p.b64 | patch -p1",
		"git archive evil | git apply",
		"git archive evil | tar -x -C audit",
		"git archive evil | tar -x -C sub/..",
		"cpio -i < e.cpio",
		"7z x e.7z",
		"cd sub && tar -x < ../e.tar -C ..",
	}
	t.Run("policy and audit log in the tree", func(t *testing.T) {
		root := setup(t)
		e := rootPolicyEngine(t, root, rules, AuditProtected(filepath.Join(root, "audit", "audit-log.jsonl")))
		var rows []commandRow
		for _, l := range unknown {
			rows = append(rows, commandRow{l, Deny})
		}
		rows = append(rows,
			commandRow{"git archive evil | tar -x -C sub", RequireApproval},
			commandRow{"cd sub && tar -x < ../e.tar", RequireApproval},
			commandRow{"tar -xf ok.tar", Allow},
		)
		checkCommandRows(t, e, root, rows)
	})
	t.Run("policy elsewhere", func(t *testing.T) {
		root := setup(t)
		pol := filepath.Join(t.TempDir(), "GOVERNANCE.md")
		e := NewEngine(writePolicy(t, pol, rules), EngineOptions{Roots: []string{root},
			Protected: []ProtectedPath{{Path: pol, What: "the governance policy"}}})
		var rows []commandRow
		for _, l := range unknown[:6] {
			rows = append(rows, commandRow{l, RequireApproval})
		}
		checkCommandRows(t, e, root, append(rows, commandRow{"tar -xf ok.tar", Allow}))
	})
}
