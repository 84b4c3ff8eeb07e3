package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptsFoundThroughPath decides lines that change PATH before a
// command name: the shell then runs the workspace's own file of that name,
// which empties the policy, where the line names only ls or cat. Before,
// such a line was only asked about for setting PATH (or for unset, read,
// local), and the person's approval ran the file; ./ls was refused for the
// same file. Each is refused whatever the policy allows; lines whose PATH
// leads to no such file keep their decision.
// Its workspace is testdata/cases/path_lookup_tree.txt.
func TestScriptsFoundThroughPath(t *testing.T) {
	e, root := checkTreeLines(t, "path_lookup_tree.txt", "  allow: [Bash]\n", "path_lookup_lines.txt")
	checkEnvRequestDenied(t, e, root, "cat", []string{"a.txt"}, EnvVar{Name: "PATH", Value: root + "/bin:/usr/bin"})
}

// TestScriptsFoundThroughComputedPath: a PATH element known only when the
// line runs may be any directory, so the files beneath the roots named as
// the line's commands are read; where the roots hold more entries than the
// bridge reads, the line is asked about, saying so, whatever rule allows
// it.
func TestScriptsFoundThroughComputedPath(t *testing.T) {
	root := tempTree(t, []string{"a/b/c"}, []string{"a.txt"})
	if err := os.WriteFile(filepath.Join(root, "a/b/c/Cat"), []byte(": > GOVERNANCE.md\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"PATH=$(cat p) cat a.txt", Deny},
		{"PATH=$(printf x) echo hi", RequireApproval},
	})
	defer func(n int) { maxTreeEntries = n }(maxTreeEntries)
	maxTreeEntries = 3
	e = rootPolicyEngine(t, root, "  allow: [Bash, Env(PATH)]\n")
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: "PATH=$(cat p) echo hi", Cwd: root, Paths: []string{root}})
	if d.Value != RequireApproval || !strings.Contains(d.Reason, "more than 3 entries") {
		t.Errorf("a computed PATH over a workspace too large to search: %v (%s: %s); want it asked about, saying so", d.Value, d.Ref, d.Reason)
	}
	// The directory the command runs in is read still: a deny stands.
	if err := os.WriteFile(filepath.Join(root, "cat"), []byte(": > GOVERNANCE.md\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	d = e.Decide(Request{Action: ActionTerminalCreate, Command: "PATH=$(cat p) cat a.txt", Cwd: root, Paths: []string{root}})
	if d.Value != Deny {
		t.Errorf("a computed PATH over a workspace too large to search, ./cat naming the policy: %v (%s); want deny", d.Value, d.Reason)
	}
}

// TestLoadablesNamingProtected decides enable -f, which loads a shared
// object into bash, whose constructor runs before enable looks for the
// builtin: an evil.so naming the policy empties it under a line that
// names only evil.so. Before, such a line was asked about, and the
// person's approval ran it. The file is read as a script is, wherever
// enable finds it: as named, attached to -f in a cluster, or in a
// directory BASH_LOADABLES_PATH lists.
func TestLoadablesNamingProtected(t *testing.T) {
	root := tempTree(t, []string{"lib", "deep/er"}, []string{"a.txt", "ok.so"})
	for _, n := range []string{"evil.so", "lib/in.so", "deep/er/far.so"} {
		if err := os.WriteFile(filepath.Join(root, n), []byte("\x7fELF\x00GOVERNANCE.md\x00"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n")
	checkCommandLines(t, e, root, "loadables_lines.txt", nil)
}

// TestStartupFilesOfAChangedHome: a shell run as a login or interactive
// shell (and an IDE's terminal, which runs the line in bash -i) runs its
// start-up files from HOME, so a line or a request pointing HOME at the
// workspace runs the .bashrc or .profile the agent wrote there. Before,
// such a line was asked about for setting HOME, and the person's approval
// emptied the policy; the files are read as the scripts they are.
// Its workspace is testdata/cases/startup_files_tree.txt.
func TestStartupFilesOfAChangedHome(t *testing.T) {
	e, root := checkTreeLines(t, "startup_files_tree.txt", "  allow: [Bash, Env(HOME)]\n", "startup_files_lines.txt")
	checkEnvRequestDenied(t, e, root, "echo", []string{"hi"}, EnvVar{Name: "HOME", Value: root})
}

// TestLookupsWalkOncePerDecision: a line that sources a file may set PATH,
// HOME or TEXTDOMAINDIR to anything, so the roots are searched for what
// those lead to; once per decision, not once per check and per command
// (eleven commands after a source made one decision walk a 15,000-file
// workspace over twenty times, 0.5 s).
func TestLookupsWalkOncePerDecision(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt"})
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n")
	before := lookupWalks.Load()
	e.Decide(Request{Action: ActionTerminalCreate, Command: "source a; ls; ls -a; ls b; cat a.txt; echo hi", Cwd: root, Paths: []string{root}})
	if n := lookupWalks.Load() - before; n > 2 {
		t.Errorf("one decision walked the roots %d times; want at most 2 (the names, the catalogs)", n)
	}
}

// checkEnvRequestDenied decides a terminal request running command with
// argv in root, env its environment, and fails unless it is denied: the
// variables lead the shell to the workspace's files.
func checkEnvRequestDenied(t *testing.T, e *Engine, root, command string, argv []string, env ...EnvVar) {
	t.Helper()
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: command, Argv: argv, Cwd: root, Paths: []string{root}, Env: env})
	if d.Value != Deny {
		t.Errorf("%s %q with the request's environment %v: %v (%s); want deny", command, argv, env, d.Value, d.Reason)
	}
}
