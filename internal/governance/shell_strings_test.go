package governance

import (
	"path/filepath"
	"testing"
)

// TestShellStringPrograms: shells of every family and name (ksh93, lksh,
// rc.byron, elvish), programs that run a string through a shell (pee,
// mispipe, socat's EXEC: and SYSTEM: addresses, ncat -c and -e) and
// programs the bridge does not know given a word that is a command line
// ("foo 'cat .env'") have that string decided as the line's own commands,
// under a policy that allows by default, denies rm, editing secrets and
// reading .env; everyday lines of known programs decide as before.
func TestShellStringPrograms(t *testing.T) {
	root := tempTree(t, []string{"secrets"}, []string{"secrets/a.key", ".env", "a.txt", "victim"})
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Bash(rm:*)\n    - Edit(./secrets/*.key)\n    - Read(**/.env)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "shell_strings_lines.txt", nil))
}

// TestShellStringProgramsAsk: under a policy that asks by default and
// allows the everyday programs, their free-text words ("add x", "A|B")
// are not read as command lines: they stay allowed.
func TestShellStringProgramsAsk(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt"})
	var allow string
	for _, c := range []string{"echo", "printf", "grep", "rg", "git", "gh", "go", "npm", "make", "docker", "pytest", "cargo", "jq", "curl", "tar", "foo"} {
		allow += "    - Bash(" + c + ":*)\n"
	}
	p := writePolicy(t, filepath.Join(root, "GOVERNANCE.md"), "  default: ask\n  deny:\n    - Bash(rm:*)\n  allow:\n    - Read\n"+allow)
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "shell_strings_ask_lines.txt", nil))
}
