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
