package governance

import (
	"path/filepath"
	"testing"
)

// TestScriptsNamingProtected refuses a line that runs a script file whose
// text names a protected location (protectedScripts): the agent writes
// ": > GOVERNANCE.md" into s.sh with an allowed edit and asks to run it,
// through a shell, source, as ./s.sh, through an interpreter, or as make's
// Makefile, the package.json scripts npm runs, a script a shell reads
// from its input. A script naming nothing protected is decided as before.
func TestScriptsNamingProtected(t *testing.T) {
	root := tempTree(t, []string{"audit", "sub"}, []string{"audit/audit-log.jsonl"})
	files := map[string]string{
		"s.sh":             ": > GOVERNANCE.md\n",
		"t.py":             "import os\nos.truncate('audit/audit-log.jsonl', 0)\n",
		"Makefile":         "all:\n\t: > audit/audit-log.jsonl\n",
		"sub/x.mk":         "all:\n\tmv ../GOVERNANCE.md /tmp/\n",
		"ok.sh":            "echo hi\n",
		"sub/package.json": `{"scripts":{"x":"rm ../GOVERNANCE.md"}}`,
		"sub/Makefile":     "all:\n\techo hi\n",
	}
	writeFiles(t, root, files, 0o755)
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n", ProtectedPath{Path: filepath.Join(root, "audit/audit-log.jsonl"), What: "the audit log", Read: true})
	checkCommandLines(t, e, root, "script_lines.txt", nil)
}
