package governance

import "testing"

// TestInterpretersUnderOtherNames decides scripts run by an interpreter
// installed under a versioned name, python's modules and the .py commands
// of uv run and pdm run. Before, only the plain names (python3, perl)
// had their script read, so "python3.11 evil.py", "perl5.36.0 evil.pl",
// "python3 -m evil" and "uv run evil.py" were decided by the policy's
// rules alone and an approval ran a script that empties the policy.
func TestInterpretersUnderOtherNames(t *testing.T) {
	checkTreeLines(t, "interpreter_names_tree.txt", "  default: allow\n  deny: [Bash(rm:*)]\n", "interpreter_names_lines.txt")
}

// TestEditorScripts decides vim's scripts: the file -S sources and the
// vimrc -u and -U name run Ex commands (":!cmd", writefile()). Before,
// "vim -u evil.vim" was decided by the policy alone (allowed by a default
// allow) and "vim -S evil.vim" was asked about, and either, allowed or
// approved, ran a script that empties the policy.
func TestEditorScripts(t *testing.T) {
	checkTreeLines(t, "editor_scripts_tree.txt", "  default: allow\n  deny: [Bash(rm:*)]\n", "editor_scripts_lines.txt")
}
