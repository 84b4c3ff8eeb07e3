package governance

import "testing"

// TestShellOptionValuesAreNoFiles: a shell's -o and -O take an option's
// name (bash -o pipefail), neither a file it writes nor a script it runs.
// Before, "bash -eo pipefail s.sh" was refused as a line that may write
// the file pipefail, which it runs as code; the script is still read.
func TestShellOptionValuesAreNoFiles(t *testing.T) {
	root := tempTree(t, []string{"scripts"}, []string{"scripts/build.sh"})
	writeFiles(t, root, map[string]string{"scripts/clean.sh": "rm -rf out\n"}, 0o644)
	e := rootPolicyEngine(t, root, "  deny: [Bash(rm -rf:*)]\n  allow: [Bash(bash:*), Bash(sh:*), Bash(ls:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"bash -o errexit scripts/build.sh", Allow},
		{"bash -eo pipefail scripts/build.sh", Allow},
		{"bash -euo pipefail -c 'ls'", Allow},
		{"sh -o nounset scripts/build.sh", Allow},
		{"bash -O extglob -o pipefail scripts/build.sh", Allow},
		{"bash -eo pipefail scripts/clean.sh", Deny},
		{"printf 'ls' > s.sh; bash -o errexit s.sh", Deny},
	})
}
