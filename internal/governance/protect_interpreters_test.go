package governance

import "testing"

// TestInterpretersUnderOtherNames decides scripts run by an interpreter
// installed under a versioned name, python's modules and the .py commands
// of uv run and pdm run. Before, only the plain names (python3, perl)
// had their script read, so "python3.11 evil.py", "perl5.36.0 evil.pl",
// "python3 -m evil" and "uv run evil.py" were decided by the policy's
// rules alone and an approval ran a script that empties the policy.
func TestInterpretersUnderOtherNames(t *testing.T) {
	root := tempTree(t, []string{"pkg", "a"}, []string{"clean.py", "a/c.py"})
	writeFiles(t, root, map[string]string{
		"evil.py":         "open('GOVERNANCE.md', 'w')\n",
		"evil.pl":         "unlink 'GOVERNANCE.md';\n",
		"evil.tcl":        "file delete GOVERNANCE.md\n",
		"pkg/__main__.py": "open('GOVERNANCE.md', 'w')\n",
		"a/__init__.py":   "open('GOVERNANCE.md', 'w')\n",
	}, 0o644)
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: [Bash(rm:*)]\n")
	checkCommandLines(t, e, root, "interpreter_names_lines.txt", nil)
}

// TestEditorScripts decides vim's scripts: the file -S sources and the
// vimrc -u and -U name run Ex commands (":!cmd", writefile()). Before,
// "vim -u evil.vim" was decided by the policy alone (allowed by a default
// allow) and "vim -S evil.vim" was asked about, and either, allowed or
// approved, ran a script that empties the policy.
func TestEditorScripts(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt", "clean.vim"})
	writeFiles(t, root, map[string]string{"evil.vim": ":call writefile([], 'GOVERNANCE.md')\n", "Session.vim": ":!rm GOVERNANCE.md\n"}, 0o644)
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: [Bash(rm:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"vim -u evil.vim a.txt", Deny},
		{"vim -S evil.vim", Deny},
		{"vim -S", Deny},
		{"nvim -u evil.vim", Deny},
		{"vi -U evil.vim a.txt", Deny},
		{"vim -S clean.vim a.txt", RequireApproval},
		{"vim -u NONE a.txt", Allow},
		{"vim a.txt", Allow},
	})
}
