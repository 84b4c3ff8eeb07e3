package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProgramsRunningNamesThroughPath decides lines that change PATH to
// list a directory the agent writes, then run a program that runs
// commands by names of its own: make its recipes', npm its scripts', a
// bare xargs echo. The line shows only "make", whose makefile names
// nothing protected, so before, reading only the names the line shows,
// the line was asked about for setting PATH (allowed with Env(PATH)) and
// the person's approval ran tools/helper, which empties the policy. Every
// executable of a directory the new PATH lists is read as code the line
// runs; a line of builtins that run no program, a PATH listing no such
// file, and a non-executable file there keep their decision.
// Its workspace is testdata/cases/path_runners_tree.txt.
func TestProgramsRunningNamesThroughPath(t *testing.T) {
	e, root := checkTreeLines(t, "path_runners_tree.txt", "  allow: [Bash, Env(PATH)]\n", "path_runners_lines.txt")
	checkEnvRequestDenied(t, e, root, "make", nil, EnvVar{Name: "PATH", Value: root + "/tools:/usr/bin:/bin"})
}

// TestPathRunnablesKeptFiles: an executable the agent may not write (a
// hook git keeps in .git/hooks, whose fsmonitor-watchman.sample names
// .git/config) is no code of the agent's, so a line that may run it
// through PATH is not refused for what it names (source is asked about
// as code the bridge cannot read, as before).
func TestPathRunnablesKeptFiles(t *testing.T) {
	root := tempTree(t, []string{".git/hooks", "bin"}, []string{"a.txt"})
	writeFiles(t, root, map[string]string{".git/hooks/fsmonitor.sample": "#!/bin/sh\ncat .git/config\n"}, 0o755)
	if err := os.WriteFile(filepath.Join(root, ".git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := rootPolicyEngine(t, root, "  allow: [Bash, Env(PATH)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"PATH=.:$PATH make", Allow},
		{"source env.sh; make", RequireApproval},
	})
}

// TestPathRunnablesTheLineMakes: a line that changes PATH may also make
// the file a program finds there: give the agent's file an execute bit
// (chmod, install), or copy, move or write one into a directory the PATH
// names. Before, the file was read only when executable when the line was
// decided, and a file the line writes not at all: "chmod +x tools/helper;
// PATH=tools:$PATH make" and "PATH=tools:$PATH; cp s tools; make" ran
// what the bridge never read.
// Its workspace is testdata/cases/path_runners_made_tree.txt.
func TestPathRunnablesTheLineMakes(t *testing.T) {
	checkTreeLines(t, "path_runners_made_tree.txt", "  allow: [Bash, Env(PATH)]\n", "path_runners_made_lines.txt")
}

// TestPathRunnablesComputedElement: a PATH element known only when the
// line runs is searched for the names the line shows, not for every
// executable of the workspace: a project script that names the policy
// (scripts/perf.sh, run by hand) refused "PATH=$(go env GOPATH)/bin:$PATH
// go test ./..." and "source .venv/bin/activate && make test" when every
// executable counted.
func TestPathRunnablesComputedElement(t *testing.T) {
	root := tempTree(t, []string{"scripts"}, []string{"a.txt"})
	writeFiles(t, root, map[string]string{"scripts/perf.sh": "#!/bin/sh\ngit diff GOVERNANCE.md\n"}, 0o755)
	e := rootPolicyEngine(t, root, "  allow: [Bash, Env(PATH)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"PATH=$(go env GOPATH)/bin:$PATH go test ./...", Allow},
		{"source .venv/bin/activate && make test", RequireApproval},
		{"PATH=$(go env GOPATH)/bin:$PATH perf.sh", Deny},
		{"PATH=scripts:$PATH make", Deny},
	})
}
