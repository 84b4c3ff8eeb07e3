package governance

import "testing"

// TestShellOptionValuesAreNoFiles: a shell's -o and -O take an option's
// name (bash -o pipefail), neither a file it writes nor a script it runs.
// Before, "bash -eo pipefail s.sh" was refused as a line that may write
// the file pipefail, which it runs as code.
func TestShellOptionValuesAreNoFiles(t *testing.T) {
	checkTreeLines(t, "shell_options_tree.txt", "  deny: [Bash(rm -rf:*)]\n  allow: [Bash(bash:*), Bash(sh:*), Bash(ls:*)]\n", "shell_options_lines.txt")
}
